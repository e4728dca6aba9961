;;; drive.el --- batch Emacs test driver for tests/editors/test_editors.py  -*- lexical-binding: t -*-
;; Loads docs/editors.md's set-up (graphmend-eglot.el), opens GM_FILE, waits for flymake to show
;; graphmend's diagnostics, runs `eglot-code-actions' on the diagnostic at line GM_LINE choosing
;; the "Mend GM...: ..." action, and writes what it saw to GM_OUT as JSON.
(load (expand-file-name "driver-common.el" (file-name-directory load-file-name)) nil t)
(setq eglot-sync-connect 10 eglot-autoshutdown t)
(condition-case err
    (progn
      (load (getenv "GM_SETUP") nil t)
      (find-file (getenv "GM_FILE"))
      ;; eglot-ensure connects from post-command-hook, which batch mode never runs by itself
      (run-hooks 'post-command-hook)
      (unless (gm-wait (lambda () (eglot-current-server)) 15) (error "eglot did not connect"))
      (unless (gm-wait (lambda () (flymake-diagnostics)) 15) (error "no diagnostics within 15 s"))
      (accept-process-output nil 0.3)
      (let ((diags (flymake-diagnostics)) (line (string-to-number (getenv "GM_LINE"))) target)
        (push (cons 'diagnostics
                    (mapcar (lambda (d)
                              (let ((l (line-number-at-pos (flymake-diagnostic-beg d))))
                                (when (= l line) (setq target d))
                                `((line . ,l) (message . ,(flymake-diagnostic-text d)))))
                            diags))
              gm-out)
        (unless target (error "no diagnostic on line %d" line))
        (let ((offered nil))
          ;; eglot asks which action to run with completing-read: choose the mend.
          (cl-letf (((symbol-function 'completing-read)
                     (lambda (_prompt collection &rest _)
                       (let ((titles (mapcar (lambda (c) (if (consp c) (car c) c)) collection)))
                         (setq offered titles)
                         (or (seq-find (lambda (title) (string-prefix-p "Mend GM" title)) titles)
                             (error "no \"Mend GM...\" action in %S" titles))))))
            ;; a keyboard event, so eglot asks with completing-read rather than a popup menu
            (let ((last-nonmenu-event ?\r))
              (eglot-code-actions (flymake-diagnostic-beg target) (flymake-diagnostic-end target)
                                  "quickfix" t)))
          (push (cons 'actions offered) gm-out))
        (push (cons 'text (buffer-substring-no-properties (point-min) (point-max))) gm-out))
      (gm-finish))
  (error (gm-finish (error-message-string err))))
