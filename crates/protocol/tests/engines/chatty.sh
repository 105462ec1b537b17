#!/usr/bin/env bash
# An engine that talks as real engines do: it runs the engine command given as its arguments
# and prints, on standard output, lines the protocols do not know: a banner before anything
# else, and a search table before each of the engine's lines (NBoard and GTP alike). A
# client must ignore them, as GUIs do.
echo "Chatty engine 1.0 (a test wrapper) version as of Dec  6 2026 12:00:00"
echo "loading the opening book... done"
"$@" | while IFS= read -r line; do
    if [ -n "$line" ]; then
        echo "  depth|score|       time|   nodes (N)|pv"
        echo "------+-----+-----------+------------+-------"
        echo "    1 | +02 |   0:00.001 |         12 | f5"
    fi
    printf '%s\n' "$line"
done
