# bash completion for collide: subcommands, their options, option values and files.
# Installed as share/bash-completion/completions/collide; or `source completions/collide.bash`.
_collide() {
    local cur prev words cword
    if declare -F _init_completion >/dev/null; then
        _init_completion || return
    else
        cur="${COMP_WORDS[COMP_CWORD]}"
        prev="${COMP_WORDS[COMP_CWORD - 1]}"
        words=("${COMP_WORDS[@]}")
        cword=$COMP_CWORD
    fi
    local commands="sim check sweep merge validate review diverge conform init"
    local sub="" i
    for ((i = 1; i < cword; i++)); do
        case "${words[i]}" in
        -*) ;;
        *) sub="${words[i]}"; break ;;
        esac
    done
    if [[ -z "$sub" ]]; then
        if [[ "$cur" == -* ]]; then
            mapfile -t COMPREPLY < <(compgen -W "--help --version" -- "$cur")
        else
            mapfile -t COMPREPLY < <(compgen -W "$commands" -- "$cur")
        fi
        return
    fi
    case "$prev" in
    --detection)
        if [[ "$sub" == sweep ]]; then
            mapfile -t COMPREPLY < <(compgen -W "discrete swept both" -- "$cur")
        else
            mapfile -t COMPREPLY < <(compgen -W "discrete swept" -- "$cur")
        fi
        return ;;
    --format)
        if [[ "$sub" == sweep ]]; then
            mapfile -t COMPREPLY < <(compgen -W "table csv json svg" -- "$cur")
        elif [[ "$sub" == conform ]]; then
            mapfile -t COMPREPLY < <(compgen -W "text json html" -- "$cur")
        else
            mapfile -t COMPREPLY < <(compgen -W "text json jsonl csv" -- "$cur")
        fi
        return ;;
    --color)
        mapfile -t COMPREPLY < <(compgen -W "auto always never" -- "$cur")
        return ;;
    --expected | --artifacts)
        mapfile -t COMPREPLY < <(compgen -d -- "$cur")
        return ;;
    -o | --output | --trace | --record | --junit)
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
        return ;;
    --set | --vary | --measure | --jobs | -j | --shard | --checkpoint | --update | --tolerance | --show | --engine)
        return ;;
    esac
    local opts="--help"
    case "$sub" in
    sim) opts+=" --engine --detection --set --format --trace --record -o --output" ;;
    diverge) opts+=" --set --engine --tolerance --show --plot --scenario" ;;
    check) opts+=" --expected --update --strict --artifacts --junit --annotations --jobs --shard --color" ;;
    sweep) opts+=" --vary --detection --format --measure --jobs --shard --checkpoint -o --output" ;;
    merge) opts+=" -o --output --format --scenario --measure" ;;
    conform) opts+=" --engine --format --strict -o --output" ;;
    init) opts+=" --collide-git" ;;
    esac
    if [[ "$cur" == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$opts" -- "$cur")
    elif [[ "$sub" == merge ]]; then
        mapfile -t COMPREPLY < <(compgen -f -X '!*.csv' -- "$cur")
        compopt -o plusdirs 2>/dev/null
    elif [[ "$sub" == diverge ]]; then
        mapfile -t COMPREPLY < <(compgen -f -X '!*.@(rec|csv|yaml|yml)' -- "$cur")
        compopt -o plusdirs 2>/dev/null
    else
        mapfile -t COMPREPLY < <(compgen -f -X '!*.y*ml' -- "$cur")
        compopt -o plusdirs 2>/dev/null
    fi
}
complete -F _collide collide
