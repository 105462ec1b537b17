#!/usr/bin/env bash
# A misbehaving NBoard engine for the tests: it answers the handshake (`ping N` with
# `pong N`), then misbehaves when asked to move (`go`), as its first argument says:
#   crash    exits with status 3 after a last word on standard error
#   hang     never answers (waits in a loop of `sleep` children)
#   illegal  answers a move that is not legal (a1 is never legal with discs only in the centre)
#   offboard answers a square off the board, space-separated as Edax writes its replies
#   garbage  answers a line the protocol does not know (ignored: then it loses on time)
#   early    exits before answering the handshake
#   slowfirst  thinks 1 s, then plays F5 (legal from the start): within the game clock it was
#            sent (TI), longer than a flat share of it
mode=$1
[ "$mode" = early ] && exit 1
while read -r cmd arg rest; do
    case "$cmd" in
        ping) echo "pong $arg" ;;
        go)
            case "$mode" in
                crash) echo "segmentation fault (simulated)" >&2; exit 3 ;;
                hang) while :; do sleep 1; done ;;
                illegal) echo "=== A1/0.00/0.01" ;;
                offboard) echo "=== e9 0.00 0.01" ;;
                garbage) echo "~~~ 42 garbage ~~~" ;;
                slowfirst) sleep 1; echo "=== F5" ;;
            esac
            ;;
    esac
done
