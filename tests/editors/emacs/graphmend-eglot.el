;;; graphmend-eglot.el --- graphmend through eglot (Emacs 29+ built in; elpa-eglot on Emacs 28)
(require 'eglot)
(add-to-list 'eglot-server-programs
             `((python-mode python-ts-mode)
               . (,(or (getenv "GRAPHMEND_BIN") "graphmend") "serve" "--stdio")))
(add-hook 'python-mode-hook #'eglot-ensure)
