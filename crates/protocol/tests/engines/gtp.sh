#!/usr/bin/env bash
# A misbehaving GTP engine for the tests: it answers every command with an empty success
# (`=ID`) and `protocol_version` with 2, then misbehaves at `genmove` as its first argument
# says (crash, hang, illegal, offboard, garbage, early: see nboard.sh). In mode `notime` it
# behaves but refuses the optional time commands, and plays d3.
mode=$1
[ "$mode" = early ] && exit 1
while read -r id cmd arg rest; do
    case "$cmd" in
        protocol_version) printf '=%s 2\n\n' "$id" ;;
        time_settings | time_left)
            if [ "$mode" = notime ]; then printf '?%s unknown command\n\n' "$id"
            else printf '=%s\n\n' "$id"; fi
            ;;
        genmove)
            case "$mode" in
                crash) echo "segmentation fault (simulated)" >&2; exit 3 ;;
                hang) while :; do sleep 1; done ;;
                illegal) printf '=%s a1\n\n' "$id" ;;
                offboard) printf '=%s e9\n\n' "$id" ;;
                notime) printf '=%s d3\n\n' "$id" ;;
                garbage) echo "~~~ 42 garbage ~~~" ;;
            esac
            ;;
        *) printf '=%s\n\n' "$id" ;;
    esac
done
