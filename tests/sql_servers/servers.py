"""Private instances of MariaDB and PostgreSQL for the sql-servers suite.

Each server gets its own data directory and unix socket under a temporary
directory, with TCP switched off, and is stopped by the pid of the process
this module started (SIGTERM, then SIGKILL after a grace period) - also when
the test fails or is killed by meson's timeout (see install_signal_handlers).
"""
import os
import pwd
import shutil
import signal
import subprocess
import time

_running = []


def install_signal_handlers():
    """Turn SIGTERM/SIGINT/SIGHUP into SystemExit so 'finally' blocks stop
    the servers when meson times the test out or the user interrupts it."""
    def handler(signum, frame):
        raise SystemExit(128 + signum)
    for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(s, handler)


def stop_all():
    while _running:
        _running.pop().stop()


def need(*progs):
    missing = [p for p in progs if not (shutil.which(p) or os.access(p, os.X_OK))]
    if missing:
        raise RuntimeError('missing programs (run scripts/deps sql-servers): ' + ', '.join(missing))


class Server:
    proc = None
    name = 'server'

    def _spawn(self, argv, log, **kw):
        self.logf = open(log, 'ab')
        self.proc = subprocess.Popen(argv, stdout=self.logf, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, **kw)
        _running.append(self)

    def stop(self):
        p = self.proc
        if p is None:
            return
        self.proc = None
        if p.poll() is None:
            os.kill(p.pid, signal.SIGTERM)  # by pid: the process we started
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.kill(p.pid, signal.SIGKILL)
                p.wait()
        self.logf.close()
        if self in _running:
            _running.remove(self)

    def wait_ready(self, probe, what, timeout=90):
        t0 = time.time()
        last = None
        while time.time() - t0 < timeout:
            if self.proc.poll() is not None:
                raise RuntimeError(f'{self.name} exited with {self.proc.returncode}; see {self.log}')
            try:
                probe()
                return
            except Exception as e:  # not up yet
                last = e
                time.sleep(0.2)
        raise RuntimeError(f'{self.name} not ready after {timeout}s ({what}): {last}; see {self.log}')


class Mariadb(Server):
    name = 'mariadb'

    def __init__(self, root):
        # mariadbd lives in /usr/sbin, which a normal user's PATH may lack
        self.mariadbd = shutil.which('mariadbd') or '/usr/sbin/mariadbd'
        need(self.mariadbd, 'mariadb-install-db', 'mariadb', 'mariadb-dump')
        self.dir = os.path.join(root, 'mariadb')
        self.data = os.path.join(self.dir, 'data')
        self.sock = os.path.join(self.dir, 'mysqld.sock')
        self.log = os.path.join(self.dir, 'server.log')
        os.makedirs(self.data)

    def start(self):
        user = ['--user=root'] if os.getuid() == 0 else []
        with open(self.log, 'ab') as log:
            subprocess.run(['mariadb-install-db', '--no-defaults', '--datadir=' + self.data,
                            '--auth-root-authentication-method=normal', '--skip-test-db',
                            '--skip-name-resolve'] + user,
                           stdout=log, stderr=subprocess.STDOUT, check=True)
        self._spawn([self.mariadbd, '--no-defaults',
                     '--datadir=' + self.data, '--socket=' + self.sock, '--skip-networking',
                     '--pid-file=' + os.path.join(self.dir, 'mysqld.pid'),
                     '--log-error=' + self.log, '--innodb-buffer-pool-size=32M',
                     '--innodb-log-file-size=16M', '--innodb-flush-log-at-trx-commit=0',
                     '--character-set-server=utf8mb4', '--collation-server=utf8mb4_bin',
                     '--skip-log-bin', '--event-scheduler=OFF', '--max-allowed-packet=64M'] + user,
                    self.log)
        self.wait_ready(lambda: self.connect().close(), 'socket ' + self.sock)

    def connect(self, db=None):
        import pymysql
        return pymysql.connect(unix_socket=self.sock, user='root', database=db,
                               charset='utf8mb4', autocommit=True)

    def client(self, sql_bytes, db=None):
        """Run a script through the mariadb command-line client (it knows
        DELIMITER, which the setup scripts use)."""
        argv = ['mariadb', '--no-defaults', '--socket=' + self.sock, '-uroot',
                '--default-character-set=utf8mb4', '--binary-mode',
                '--comments']  # keep comments in routine bodies (the client strips them by default)
        if db:
            argv.append(db)
        subprocess.run(argv, input=sql_bytes, check=True, capture_output=True)

    def dump(self, db, opts):
        argv = ['mariadb-dump', '--no-defaults', '--socket=' + self.sock, '-uroot',
                '--default-character-set=utf8mb4'] + opts + [db]
        p = subprocess.run(argv, capture_output=True)
        if p.returncode != 0:
            raise RuntimeError(f'mariadb-dump {" ".join(opts)} {db}: exit {p.returncode}: {p.stderr[:500]!r}')
        return p.stdout


class Postgres(Server):
    name = 'postgres'
    BIN = '/usr/lib/postgresql/15/bin'

    def __init__(self, root):
        need(self.BIN + '/postgres', self.BIN + '/initdb', self.BIN + '/pg_dump', self.BIN + '/psql')
        self.dir = os.path.join(root, 'postgres')
        self.data = os.path.join(self.dir, 'data')
        self.log = os.path.join(self.dir, 'server.log')
        os.makedirs(self.dir)
        self.run_as = {}
        if os.getuid() == 0:
            # postgres refuses to run as root: data dir and server belong to nobody
            pw = pwd.getpwnam('nobody')
            os.chmod(root, 0o755)
            os.chown(self.dir, pw.pw_uid, pw.pw_gid)
            self.run_as = {'user': pw.pw_uid, 'group': pw.pw_gid, 'extra_groups': []}

    def start(self):
        with open(self.log, 'ab') as log:
            subprocess.run([self.BIN + '/initdb', '-D', self.data, '-U', 'postgres',
                            '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync'],
                           stdout=log, stderr=subprocess.STDOUT, check=True, cwd=self.dir,
                           **self.run_as)
        self._spawn([self.BIN + '/postgres', '-D', self.data, '-k', self.dir,
                     '-c', "listen_addresses=", '-c', 'fsync=off', '-c', 'full_page_writes=off',
                     '-c', 'synchronous_commit=off', '-c', 'shared_buffers=32MB'],
                    self.log, cwd=self.dir, **self.run_as)
        self.wait_ready(lambda: self.connect('postgres').close(), 'socket in ' + self.dir)

    def stop(self):
        # SIGTERM is a "smart" shutdown that waits for clients; SIGINT is
        # the fast one (clients disconnected, clean checkpoint).
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGINT)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                pass
        super().stop()

    def connect(self, db):
        import psycopg2
        c = psycopg2.connect(host=self.dir, dbname=db, user='postgres')
        c.autocommit = True
        return c

    def psql(self, sql_bytes, db):
        subprocess.run([self.BIN + '/psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-h', self.dir,
                        '-U', 'postgres', '-d', db], input=sql_bytes, check=True,
                       capture_output=True)

    def dump(self, db, opts):
        argv = [self.BIN + '/pg_dump', '-h', self.dir, '-U', 'postgres'] + opts + [db]
        return subprocess.run(argv, check=True, capture_output=True).stdout
