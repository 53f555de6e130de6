#!/bin/bash
# Submits the sweep array and the merge that waits for it; prints their job ids.
#   bash examples/slurm/submit.sh                 # 16 shards (sweep.sbatch's --array)
#   bash examples/slurm/submit.sh --array=1-64    # any other count, any first index
# Run it from the folder the results should go to (logs/, parts/ and the merged CSV). The
# variables sweep.sbatch and merge.sbatch read (COLLIDE, SCENARIO, VARY, ...) pass through.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p logs parts
sweep=$(sbatch --parsable "$@" "$here/sweep.sbatch")
sweep=${sweep%%;*} # "ID;cluster" on a federated cluster
merge=$(sbatch --parsable --dependency="afterok:$sweep" "$here/merge.sbatch")
merge=${merge%%;*}
echo "$sweep $merge"
