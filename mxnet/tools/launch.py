"""Launch a distributed MXNet job: ``python -m mxnet.tools.launch -n 2 python train.py``.

MXNet's launcher interface on ``torch.distributed``'s rendezvous: every worker gets the
``torchrun`` variables (``RANK``, ``WORLD_SIZE``, ``LOCAL_RANK``, ``MASTER_ADDR``,
``MASTER_PORT``) and MXNet's ``DMLC_*`` variables, so ``mx.kv.create('dist_sync')`` finds its
peers. ``--launcher local`` starts every process on this host; ``--launcher ssh`` starts them
on the hosts of ``-H HOSTFILE`` (one host per line, round robin), the first host acting as the
rendezvous master. Servers (``-s``) run ``python -m mxnet.kvstore_server`` and are only
needed by ``dist_async``.
"""

from __future__ import annotations

import argparse
import os
import shlex
import signal
import socket
import subprocess
import sys
import time

__all__ = ["main", "build_env"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def build_env(role: str, rank: int, num_workers: int, num_servers: int, master: str,
              port: int, local_rank: int = 0, ps_port: int | None = None) -> dict[str, str]:
    """Environment of one process of the job.

    Workers form the ``torch.distributed`` group (``RANK`` < ``WORLD_SIZE`` = number of
    workers) that meets at ``MASTER_ADDR:MASTER_PORT``; servers (``dist_async``) meet the
    workers at ``DMLC_PS_ROOT_URI:DMLC_PS_ROOT_PORT`` (``ps_port``, default ``port``).

    Examples
    --------
    >>> build_env('worker', 1, 2, 0, '127.0.0.1', 9000)['RANK']
    '1'
    """
    env = {
        "DMLC_ROLE": role, "DMLC_NUM_WORKER": str(num_workers),
        "DMLC_NUM_SERVER": str(num_servers), "DMLC_PS_ROOT_URI": master,
        "DMLC_PS_ROOT_PORT": str(port if ps_port is None else ps_port),
        "LOCAL_RANK": str(local_rank), "MASTER_ADDR": master, "MASTER_PORT": str(port),
    }
    if role == "worker":
        env.update(DMLC_WORKER_ID=str(rank), RANK=str(rank), WORLD_SIZE=str(num_workers))
    else:
        env["DMLC_SERVER_ID"] = str(rank)
    return env


def _parse_env_pairs(pairs):
    out = {}
    for p in pairs:
        k, sep, v = p.partition(":")
        if not sep:
            raise SystemExit(f"--env-worker/--env-server expect NAME:VALUE, got {p!r}")
        out[k] = v
    return out


def _hosts(hostfile):
    with open(hostfile) as f:
        hosts = [line.split()[0] for line in f if line.strip() and not line.startswith("#")]
    if not hosts:
        raise SystemExit(f"hostfile {hostfile} lists no hosts")
    return hosts


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Launch a distributed MXNet job")
    parser.add_argument("-n", "--num-workers", required=True, type=int,
                        help="number of worker processes")
    parser.add_argument("-s", "--num-servers", type=int, default=0,
                        help="number of server processes (dist_async only; default 0)")
    parser.add_argument("-H", "--hostfile", type=str, help="hosts for the ssh launcher")
    parser.add_argument("--launcher", type=str, default="local", choices=["local", "ssh"])
    parser.add_argument("--sync-dst-dir", type=str, help="working directory on remote hosts")
    parser.add_argument("--env-server", action="append", default=[])
    parser.add_argument("--env-worker", action="append", default=[])
    parser.add_argument("--env", action="append", default=[],
                        help="names of variables passed through to remote processes")
    parser.add_argument("--timeout", type=float, default=0,
                        help="seconds after which the whole job is stopped (0: none)")
    parser.add_argument("--grace", type=float, default=None,
                        help="seconds the other workers get to exit after one fails "
                             "(default: MXNET_KVSTORE_TIMEOUT + 5, at most 60)")
    parser.add_argument("command", nargs="+", help="command of each worker")
    args, unknown = parser.parse_known_args(argv)
    command = args.command + unknown
    if args.num_workers < 1:
        raise SystemExit("--num-workers must be at least 1")
    if args.grace is None:
        args.grace = min(60.0, float(os.getenv("MXNET_KVSTORE_TIMEOUT", "300")) + 5)

    hosts = ["127.0.0.1"]
    if args.launcher == "ssh":
        if not args.hostfile:
            raise SystemExit("--launcher ssh needs -H HOSTFILE")
        hosts = _hosts(args.hostfile)
    master, port = hosts[0], _free_port()
    ps_port = port
    while args.num_servers and ps_port == port:
        ps_port = _free_port()
    procs: list[subprocess.Popen] = []
    old = signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        _spawn(args, command, hosts, master, port, ps_port, procs)
    except BaseException:
        _wait(procs, 0.001, num_servers=args.num_servers)
        raise
    finally:
        signal.signal(signal.SIGTERM, old)
    return _wait(procs, args.timeout, num_servers=args.num_servers, grace=args.grace)


def _spawn(args, command, hosts, master, port, ps_port, procs) -> None:
    """Start the servers then the workers (round robin over ``hosts``), into ``procs``."""
    worker_env = _parse_env_pairs(args.env_worker)
    server_env = _parse_env_pairs(args.env_server)
    server_cmd = [sys.executable, "-m", "mxnet.kvstore_server"]
    jobs = [("server", i, server_cmd, server_env) for i in range(args.num_servers)]
    jobs += [("worker", i, command, worker_env) for i in range(args.num_workers)]
    per_host: dict[str, int] = {}
    for k, (role, rank, cmd, extra) in enumerate(jobs):
        host = hosts[k % len(hosts)]
        local_rank = per_host.get(host, 0)
        per_host[host] = local_rank + 1
        env = build_env(role, rank, args.num_workers, args.num_servers, master, port,
                        local_rank, ps_port)
        env.update(extra)
        if args.launcher == "local":
            procs.append(subprocess.Popen(cmd, env={**os.environ, **env}))
        else:
            passthrough = {n: os.environ[n] for n in args.env if n in os.environ}
            exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in {**passthrough,
                                                                    **env}.items())
            cwd = args.sync_dst_dir or os.getcwd()
            remote = f"cd {shlex.quote(cwd)} && env {exports} {shlex.join(cmd)}"
            procs.append(subprocess.Popen(["ssh", "-o", "StrictHostKeyChecking=no", host,
                                           remote]))


def _on_sigterm(signum, frame):
    raise SystemExit(128 + signum)  # runs _wait's cleanup: no orphaned workers


def _wait(procs, timeout: float, num_servers: int, grace: float = 0.0) -> int:
    """Wait for the workers; if one fails (or the timeout passes) stop the others.

    After a worker fails, the others get ``grace`` seconds to notice it (their KVStore raises
    ``MXNetError`` within ``MXNET_KVSTORE_TIMEOUT``) and exit on their own.
    """
    start = time.time()
    workers = procs[num_servers:]
    rc = 0
    old = signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        failed_at = None
        while True:
            codes = [p.poll() for p in workers]
            failed = [c for c in codes if c not in (None, 0)]
            if failed and failed_at is None:
                rc, failed_at = failed[0], time.time()
                print(f"launch: a worker exited with code {rc}; stopping the job"
                      + (f" in at most {grace:g}s" if grace else ""), file=sys.stderr)
            if all(c is not None for c in codes):
                break
            if failed_at is not None and time.time() - failed_at >= grace:
                break
            if timeout and time.time() - start > timeout:
                print(f"launch: job exceeded --timeout {timeout}s; stopping it", file=sys.stderr)
                rc = 124
                break
            time.sleep(0.05)
    finally:
        signal.signal(signal.SIGTERM, old)
        for p in procs:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for p in procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
    return rc


if __name__ == "__main__":
    sys.exit(main())
