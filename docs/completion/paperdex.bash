# bash completion for paperdex.  Commands from the program's table; a
# command's options from its own --help, so they cannot go stale.
# Installed by `cmake --install` to share/bash-completion/completions.
_paperdex()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    local cmd=${COMP_WORDS[1]:-}
    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "index compact search show similar stats serve --help --version" -- "$cur"))
        return
    fi
    case $prev in
    --db) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    --format)
        case $cmd in
        index) COMPREPLY=($(compgen -W "auto arxiv jsonl profile list abstracts listing compact smart beir pubmed openalex oai bibtex medline ris" -- "$cur")) ;;
        search) COMPREPLY=($(compgen -W "text json jsonl trec" -- "$cur")) ;;
        show | similar) COMPREPLY=($(compgen -W "text json jsonl" -- "$cur")) ;;
        *) COMPREPLY=($(compgen -W "text json" -- "$cur")) ;;
        esac
        return ;;
    --sort) COMPREPLY=($(compgen -W "relevance newest oldest" -- "$cur")); return ;;
    --facets) COMPREPLY=($(compgen -W "year category author subject" -- "$cur")); return ;;
    esac
    if [[ $cur == -* ]]; then
        local opts
        opts=$("${COMP_WORDS[0]}" "$cmd" --help 2>/dev/null |
            grep -oE -- '--[a-z][a-z0-9-]*' | sort -u)
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
        return
    fi
    case $cmd in
    index | compact) COMPREPLY=($(compgen -f -- "$cur")) ;;
    esac
}
complete -F _paperdex paperdex
