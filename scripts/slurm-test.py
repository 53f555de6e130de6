#!/usr/bin/env python3
"""The Slurm recipe of examples/slurm/, run on a real one-node Slurm cluster.

Brings up munged, slurmctld and slurmd on 127.0.0.1 (free ports, every file in a temporary
folder of their own at 0755), submits examples/slurm/submit.sh (from a copy under a 0700 folder): a 4-task array of a real sweep (one resumable shard
per task, `--shard auto`) and the merge job that depends on it (afterok). Once a task has
finished rows in its chunk folder it is cancelled and requeued; then everything is waited for,
each task must be COMPLETED (the requeued one having resumed after its rows), and the merged
CSV must be byte for byte the one-process sweep. Every daemon is stopped by its PID at the end,
and none may be left.

Usage: slurm-test.py COLLIDE_EXE WORKDIR. Exits 77 (ctest: skipped, with the reason) when
slurm-wlm and munge are not installed (scripts/install-slurm.sh installs them) or when not
run as root (the daemons run as SlurmUser=root here).
"""
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(HERE)
SKIP = 77
DAEMONS = ["munged", "mungekey", "slurmctld", "slurmd"]
CLIENTS = ["sbatch", "scontrol", "scancel", "sinfo", "squeue"]


def skip(reason):
    print(f"slurm-test: skipped: {reason}")
    sys.exit(SKIP)


def find(program):
    return shutil.which(program) or shutil.which(program, path="/usr/sbin:/sbin:/usr/bin")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    """munged, slurmctld and slurmd of one node, every file under `root`."""

    def __init__(self, root):
        self.root = root
        self.procs = {}  # name -> Popen
        self.env = dict(os.environ, SLURM_CONF=os.path.join(root, "slurm.conf"))
        for v in [k for k in self.env if k.startswith("SLURM_") and k != "SLURM_CONF"]:
            del self.env[v]  # a test run inside a Slurm job must not pass its own task's variables on

    def path(self, *parts):
        return os.path.join(self.root, *parts)

    def start(self, name, argv):
        log = open(self.path(f"{name}.out"), "wb")
        self.procs[name] = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                            env=self.env, start_new_session=True)
        log.close()

    def up(self):
        os.chmod(self.root, 0o755)  # munged refuses a socket folder others cannot read (700)
        for d in ("state", "spool", "munge"):
            os.makedirs(self.path(d), mode=0o755)
        key = self.path("munge", "munge.key")
        subprocess.run([find("mungekey"), "--create", "-k", key], check=True, stdout=subprocess.DEVNULL)
        os.chmod(key, 0o600)
        socket_path = self.path("munge", "munge.socket")
        self.start("munged", [find("munged"), "-F", "--origin=127.0.0.1", "--key-file", key, "--socket", socket_path,
                              "--pid-file", self.path("munge", "munged.pid"), "--log-file",
                              self.path("munge", "munged.log"), "--seed-file", self.path("munge", "munged.seed")])
        wait_for(lambda: os.path.exists(socket_path), 10, "munged's socket")
        node = subprocess.run([find("slurmd"), "-C"], capture_output=True, text=True, check=True).stdout
        node_line = next(line for line in node.splitlines() if line.startswith("NodeName="))
        node_name = node_line.split()[0].split("=", 1)[1]
        host = socket.gethostname().split(".")[0]
        conf = f"""ClusterName=collide-test
SlurmctldHost={host}(127.0.0.1)
SlurmctldPort={free_port()}
SlurmdPort={free_port()}
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket={socket_path}
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmUser=root
SlurmdUser=root
StateSaveLocation={self.path("state")}
SlurmdSpoolDir={self.path("spool")}
SlurmctldPidFile={self.path("slurmctld.pid")}
SlurmdPidFile={self.path("slurmd.pid")}
SlurmctldLogFile={self.path("slurmctld.log")}
SlurmdLogFile={self.path("slurmd.log")}
MailProg=/bin/true
SchedulerParameters=batch_sched_delay=0
MinJobAge=3600
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
{node_line} NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=test Nodes={node_name} Default=YES MaxTime=INFINITE State=UP
"""
        with open(self.env["SLURM_CONF"], "w") as f:
            f.write(conf)
        self.start("slurmctld", [find("slurmctld"), "-D", "-f", self.env["SLURM_CONF"]])
        self.start("slurmd", [find("slurmd"), "-D", "-N", node_name, "-f", self.env["SLURM_CONF"]])
        wait_for(lambda: self.run(["sinfo", "-h", "-o", "%t"], check=False).strip() == "idle", 30,
                 "the node to be idle (sinfo)", self.logs)

    def run(self, argv, check=True, cwd=None):
        r = subprocess.run([find(argv[0])] + argv[1:], capture_output=True, text=True, env=self.env, cwd=cwd)
        if check and r.returncode != 0:
            raise RuntimeError(f"{' '.join(argv)} exited {r.returncode}: {r.stderr.strip()}")
        return r.stdout

    def job(self, job_id):
        """scontrol's fields of one job, or {} when it is not known."""
        out = self.run(["scontrol", "-o", "show", "job", str(job_id)], check=False)
        fields = {}
        for word in out.split():
            if "=" in word:
                k, v = word.split("=", 1)
                fields.setdefault(k, v)
        return fields

    def logs(self):
        text = ""
        for name in ("slurmctld.log", "slurmd.log", "munged.out", "slurmctld.out", "slurmd.out"):
            p = self.path(name)
            if os.path.exists(p):
                with open(p, errors="replace") as f:
                    text += f"--- {name} (last lines)\n" + "".join(f.readlines()[-15:])
        return text

    def down(self):
        """Stops every daemon by its PID (SIGTERM, then SIGKILL); returns those that were still running."""
        left = []
        for name in ("slurmd", "slurmctld", "munged"):
            p = self.procs.get(name)
            if p is None or p.poll() is not None:
                continue
            p.send_signal(signal.SIGTERM)
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        for name, p in self.procs.items():
            try:
                os.kill(p.pid, 0)
                left.append(f"{name} (pid {p.pid})")
            except ProcessLookupError:
                pass
        return left


def wait_for(condition, seconds, what, details=lambda: ""):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if condition():
            return
        time.sleep(0.1)
    raise RuntimeError(f"timed out after {seconds} s waiting for {what}\n{details()}")


def rows_in_chunks(folder):
    if not os.path.isdir(folder):
        return 0
    return sum(int(n[18:30]) for n in os.listdir(folder) if n.startswith("rows-"))


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: slurm-test.py COLLIDE_EXE WORKDIR")
    collide, workdir = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    missing = [p for p in DAEMONS + CLIENTS if not find(p)]
    if missing:
        skip(f"Slurm is not installed (no {', '.join(missing)}); scripts/install-slurm.sh installs slurm-wlm and munge")
    if os.geteuid() != 0:
        skip("the one-node cluster runs its daemons as root (SlurmUser=root); run as root")
    os.makedirs(workdir, exist_ok=True)
    # The daemons' files (munge's socket and key, Slurm's state and spool) in a folder of their
    # own under the system's temporary folder, at 0755: munged will not serve a socket below a
    # folder others may not enter, and a clone may sit under one (a home folder at 0700, or a
    # folder from mktemp -d). The recipe itself runs from a copy of the project's slurm example
    # and scenarios under such a private (0700) folder, as a user's clone would be.
    root = tempfile.mkdtemp(prefix="collide-slurm-")
    private = tempfile.mkdtemp(prefix="private-", dir=workdir)  # 0700
    project = os.path.join(private, "collide")
    for part in (os.path.join("examples", "slurm"), "scenarios"):
        shutil.copytree(os.path.join(SOURCE, part), os.path.join(project, part))
    cluster = Cluster(root)
    started = time.time()
    ok = False
    try:
        if os.stat(private).st_mode & 0o777 != 0o700:
            raise RuntimeError(f"{private} is not private (0700)")
        cluster.up()
        print(f"slurm-test: cluster up in {time.time() - started:.1f} s (its files in {root}; the recipe "
              f"under {private}, mode 0700)")
        run = os.path.join(project, "run")
        os.makedirs(run)
        # The sweep the recipe runs: 4 shards of a real scenario, each a few seconds of work.
        env = dict(cluster.env, COLLIDE=collide, SCENARIO=os.path.join(project, "scenarios", "tunnel.yaml"),
                   VARY="--vary speed=10:1000:1 --vary offset=0:0.999:0.002", DETECTION="both", JOBS="1",
                   CHECKPOINT="0", OUTPUT="tunnel.csv")
        submit = subprocess.run(["bash", os.path.join(project, "examples", "slurm", "submit.sh"), "--array=1-4"],
                                cwd=run, env=env, capture_output=True, text=True)
        if submit.returncode != 0:
            raise RuntimeError(f"submit.sh exited {submit.returncode}: {submit.stderr}")
        ids = submit.stdout.split()
        sweep_id, merge_id = ids[-2], ids[-1]
        print(f"slurm-test: submitted the sweep array {sweep_id} and the merge {merge_id}")

        # Cancel task 2 mid-run, once it has finished rows, and requeue it: `scontrol requeue`
        # kills the running task and puts it back in the queue, as a preemption or a node
        # failure does (a task cancelled with scancel would break the merge's afterok).
        task2 = f"{sweep_id}_2"
        chunks = os.path.join(run, "parts", "part-2.csv.chunks")
        wait_for(lambda: rows_in_chunks(chunks) > 0 and cluster.job(task2).get("JobState") == "RUNNING", 90,
                 "task 2 to be running with finished rows", cluster.logs)
        cluster.run(["scontrol", "requeue", task2])
        wait_for(lambda: cluster.job(task2).get("JobState") != "RUNNING" or cluster.job(task2).get("Restarts") != "0",
                 30, "task 2 to stop")
        kept = rows_in_chunks(chunks)
        print(f"slurm-test: task 2 cancelled mid-run with {kept} rows in its chunks, and requeued "
              f"(restarts: {cluster.job(task2).get('Restarts')}) at {time.time() - started:.1f} s")

        def let_task2_start():
            # A requeued job is held back for a while (its BeginTime, about two minutes ahead)
            # once it is PENDING again; an update sent while it is still completing is lost.
            # Let it start now, as often as it is found waiting for its begin time.
            job = cluster.job(task2)
            if job.get("JobState") == "PENDING" and job.get("Reason") == "BeginTime":
                cluster.run(["scontrol", "update", f"JobId={task2}", "StartTime=now"], check=False)
                nudges.append(job.get("StartTime"))

        nudges = []

        def finished():
            let_task2_start()
            states = [cluster.job(f"{sweep_id}_{k}").get("JobState") for k in range(1, 5)]
            states.append(cluster.job(merge_id).get("JobState"))
            bad = [s for s in states if s in ("FAILED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY", "BOOT_FAIL")]
            if bad:
                raise RuntimeError(f"a job ended {bad}: {states}\n{cluster.logs()}")
            return all(s == "COMPLETED" for s in states)

        wait_for(finished, 300, "every task and the merge to complete", cluster.logs)
        print(f"slurm-test: every task and the merge completed at {time.time() - started:.1f} s (task 2 was "
              f"let start {len(nudges)} time(s) before its begin time {nudges[0] if nudges else '-'})")
        with open(os.path.join(run, "logs", f"sweep-{sweep_id}_2.out"), errors="replace") as f:
            task2_log = f.read()
        if kept > 0 and "resuming" not in task2_log:
            raise RuntimeError(f"the requeued task did not resume after its {kept} rows:\n{task2_log}")
        # The one-process sweep, byte for byte.
        whole = os.path.join(run, "whole.csv")
        subprocess.run([collide, "sweep", env["SCENARIO"], "--vary", "speed=10:1000:1", "--vary",
                        "offset=0:0.999:0.002", "--detection", "both", "--format", "csv", "-o", whole],
                       check=True, stderr=subprocess.DEVNULL)
        with open(whole, "rb") as a, open(os.path.join(run, "tunnel.csv"), "rb") as b:
            if a.read() != b.read():
                raise RuntimeError("the merged CSV differs from the one-process sweep")
        print(f"slurm-test: merged CSV identical to the one-process sweep ({os.path.getsize(whole)} bytes)")
        ok = True
    except Exception as e:  # noqa: BLE001 - reported, then the cluster is stopped
        print(f"slurm-test: FAILED: {e}")
    finally:
        if cluster.procs:
            try:
                cluster.run(["scancel", "--user", "root"], check=False)
            except Exception:  # noqa: BLE001
                pass
        left = cluster.down()
        if left:
            print(f"slurm-test: FAILED: daemons still running: {', '.join(left)}")
            ok = False
        if ok:
            shutil.rmtree(root, ignore_errors=True)
            shutil.rmtree(private, ignore_errors=True)
        else:
            print(f"slurm-test: kept {root} and {private} for a look")
    print(f"slurm-test: {'passed' if ok else 'failed'} in {time.time() - started:.1f} s")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
