;;; graphmend-lsp-mode.el --- graphmend through lsp-mode, beside any Python server you run
(require 'lsp-mode)
(lsp-register-client
 (make-lsp-client
  :new-connection (lsp-stdio-connection
                   (lambda () (list (or (getenv "GRAPHMEND_BIN") "graphmend") "serve" "--stdio")))
  :activation-fn (lsp-activate-on "python")
  :server-id 'graphmend
  :add-on? t))
(add-hook 'python-mode-hook #'lsp)
