;;; drive-lsp-mode.el --- batch Emacs + lsp-mode driver for tests/editors/test_editors.py  -*- lexical-binding: t -*-
;; Loads docs/editors.md's lsp-mode set-up (graphmend-lsp-mode.el), opens GM_FILE, waits for
;; graphmend's diagnostics, runs the "Mend GM...: ..." code action on the diagnostic at
;; line GM_LINE, and writes what it saw to GM_OUT as JSON.
(load (expand-file-name "driver-common.el" (file-name-directory load-file-name)) nil t)
(setq lsp-auto-guess-root t lsp-enable-snippet nil lsp-diagnostics-provider :flymake
      lsp-keep-workspace-alive nil lsp-restart 'ignore lsp-enable-file-watchers nil
      lsp-session-file (expand-file-name "lsp-session" (getenv "HOME")))
(condition-case err
    (progn
      (load (getenv "GM_SETUP") nil t)
      (find-file (getenv "GM_FILE"))
      (unless (gm-wait (lambda () (lsp-workspaces)) 15) (error "lsp-mode did not connect"))
      (unless (gm-wait (lambda () (gethash (buffer-file-name) (lsp-diagnostics t))) 15)
        (error "no diagnostics within 15 s"))
      (accept-process-output nil 0.3)
      (let* ((line (string-to-number (getenv "GM_LINE")))
             (diags (gethash (buffer-file-name) (lsp-diagnostics t))))
        (push (cons 'diagnostics
                    (mapcar (lambda (d)
                              `((line . ,(1+ (lsp:position-line (lsp:range-start (lsp:diagnostic-range d)))))
                                (message . ,(lsp:diagnostic-message d))))
                            diags))
              gm-out)
        (goto-char (point-min))
        (forward-line (1- line))
        (back-to-indentation)
        (let* ((actions (lsp-code-actions-at-point "quickfix"))
               (titles (mapcar #'lsp:code-action-title actions))
               (mend (seq-find (lambda (a) (string-prefix-p "Mend GM" (lsp:code-action-title a)))
                               actions)))
          (push (cons 'actions titles) gm-out)
          (unless mend (error "no \"Mend GM...\" action in %S" titles))
          (lsp-execute-code-action mend))
        (push (cons 'text (buffer-substring-no-properties (point-min) (point-max))) gm-out))
      (gm-finish))
  (error (gm-finish (error-message-string err))))
