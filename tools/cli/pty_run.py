"""Run a command with a pseudo-terminal as its stdout and/or stderr, for the CLI tests that
check what lance-nd draws on a terminal (readable forms, progress bars)."""
import fcntl
import os
import struct
import subprocess
import termios
import threading


def run_tty(argv, tty_stdout=True, tty_stderr=False, columns=120, env=None, stdin=None):
    """Returns (exit, stdout, stderr), the terminal's text as the program wrote it
    ("\\r\\n" back to "\\n"); a stream that is not the terminal is a plain pipe."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
    chunks = []

    def drain():
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO once the last writer is gone
                return
            if not data:
                return
            chunks.append(data)

    reader = threading.Thread(target=drain)
    reader.start()
    p = subprocess.Popen(argv, env=env,
                         stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                         stdout=slave if tty_stdout else subprocess.PIPE,
                         stderr=slave if tty_stderr else subprocess.PIPE)
    os.close(slave)
    out, err = p.communicate(stdin.encode() if stdin is not None else None)
    reader.join()
    os.close(master)
    tty = b"".join(chunks).decode("utf-8", "replace").replace("\r\n", "\n")
    out = tty if tty_stdout else out.decode()
    err = tty if tty_stderr else err.decode()
    return p.returncode, out, err
