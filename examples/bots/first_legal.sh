#!/usr/bin/env bash
# A golf bot in plain bash (no jq, no node): it always plays the first legal action.
# It speaks the golf-bot/1 line protocol (docs/bot-protocol.md):
#   golf play --bots 'cmd:bash examples/bots/first_legal.sh'
#   golf simulate --bots 'cmd:bash examples/bots/first_legal.sh,greedy' --games 10
set -u

# The handshake: golf's first line names the protocol; answer with ours and a name.
IFS= read -r hello || exit 0
if [[ $hello != *'"protocol":"golf-bot/1"'* ]]; then
    echo "first_legal.sh speaks golf-bot/1, golf sent: $hello" >&2
    exit 3
fi
echo '{"protocol":"golf-bot/1","name":"first-legal (bash)"}'

# One decision per line: {"type":"decide","legal":["draw","take"],"view":{...}}.
# Answer one line: an action in the notation. Diagnostics go to stderr, never stdout.
while IFS= read -r line; do
    if [[ $line =~ \"legal\":\[\"([^\"]+)\" ]]; then
        echo "${BASH_REMATCH[1]}"
    else
        echo "first_legal.sh: no legal actions in: ${line:0:80}" >&2
        exit 4
    fi
done
# golf closed stdin: the match is over.
