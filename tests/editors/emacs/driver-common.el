;;; driver-common.el --- what the batch Emacs test drivers share  -*- lexical-binding: t -*-
;; The result alist written to GM_OUT as JSON, and a wait that keeps processing the server's
;; output (batch Emacs has no command loop to do it).
(package-initialize)
(require 'json)
(defvar gm-out nil)

(defun gm-finish (&optional error)
  "Write `gm-out' (with ERROR, if any) to GM_OUT and quit."
  (when error (push (cons 'error error) gm-out))
  (with-temp-file (getenv "GM_OUT") (insert (json-encode gm-out)))
  (kill-emacs 0))

(defun gm-wait (predicate seconds)
  "Process output until PREDICATE holds or SECONDS pass; PREDICATE's last value."
  (let ((deadline (+ (float-time) seconds)))
    (while (and (not (funcall predicate)) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (funcall predicate)))
