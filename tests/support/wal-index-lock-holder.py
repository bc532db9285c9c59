"""
Holds locks of a WAL database's index (its `-shm` file) the way SQLite does: POSIX record locks
(fcntl F_SETLK) on the lock bytes after the index header, in a process of its own. Node has no
fcntl, hence Python (on every machine of this project's kind).

    python3 wal-index-lock-holder.py <database path> <first lock> <count> [hold ms]

Lock n is byte 120 + n of `<database>-shm`: 0 is the write lock, 1 the checkpoint lock, 2 the
recovery lock, 3-7 the read marks 0-4 (SQLite's os_unix.c, UNIX_SHM_BASE). Prints "locked" once
it holds them exclusively, then releases them when stdin closes or, with `hold ms`, after that
long (a test whose main thread is stuck inside SQLite cannot tell it to let go). While other
processes are reading (each holds a read mark for a moment), it tries again every millisecond,
for up to 10 s, as SQLite's own lock attempts do.
"""
import fcntl
import os
import select
import sys
import time

path, first, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
hold = float(sys.argv[4]) / 1000 if len(sys.argv) > 4 else None
fd = os.open(path + "-shm", os.O_RDWR)
give_up = time.monotonic() + 10
while True:
    try:
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, count, 120 + first, os.SEEK_SET)
        break
    except BlockingIOError:
        if time.monotonic() > give_up:
            raise
        time.sleep(0.001)
sys.stdout.write("locked\n")
sys.stdout.flush()
if hold is None:
    sys.stdin.read()
else:
    select.select([sys.stdin], [], [], hold)
os.close(fd)
