#!/usr/bin/env bash
# Installs Slurm (slurm-wlm: slurmctld, slurmd and the clients) and munge for the Slurm test
# (scripts/slurm-test.py: a one-node cluster on 127.0.0.1), when missing. scripts/test.sh calls
# it under CI; elsewhere the test says it is skipped and why. The test does not use the
# packages' own services: it starts its own daemons, with their files in a temporary folder.
set -euo pipefail
if [ -x /usr/sbin/slurmctld ] && [ -x /usr/sbin/slurmd ] && [ -x /usr/sbin/munged ] && command -v sbatch >/dev/null 2>&1; then
  exit 0
fi
sudo_cmd=""
[ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
$sudo_cmd apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends slurm-wlm munge
