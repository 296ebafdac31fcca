"""Runs a command in a real pseudo-terminal (python3's pty module: no native npm build needed), waits for a
prompt, types the given bytes, and prints one JSON line: {"code": exit code, "typed": whether every answer was
typed, "output": everything shown}. Used by the prompt tests: Ctrl-C and Ctrl-D at `Apply these changes?`,
and a fleet's prompts one account after the other. Keys are typed once the prompt shows and the terminal is in
raw mode, whatever the machine's speed. A JSON list of strings answers one prompt each: the n-th answer is
typed once the prompt has shown n times.

usage: python3 _pty.py PROMPT KEYS_AS_JSON_STRING_OR_LIST -- command args...
"""
import json, os, pty, select, sys, termios, time

prompt = sys.argv[1].encode()
given = json.loads(sys.argv[2])
answers = [a.encode() for a in (given if isinstance(given, list) else [given])]
command = sys.argv[sys.argv.index("--") + 1:]

pid, fd = pty.fork()
if pid == 0:
    os.execvp(command[0], command)

output = b""
typed = 0
deadline = time.time() + 60
while time.time() < deadline:
    ready, _, _ = select.select([fd], [], [], 0.1)
    if ready:
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        output += chunk
    # Typed once the prompt shows and readline has put the terminal in raw mode (the child's own state, no
    # sleep): before that, the line discipline would turn Ctrl-C into a SIGINT instead of a key.
    if typed < len(answers) and output.count(prompt) > typed and not termios.tcgetattr(fd)[3] & (termios.ICANON | termios.ISIG):
        os.write(fd, answers[typed])
        typed += 1
_, status = os.waitpid(pid, 0)
print(json.dumps({"code": os.waitstatus_to_exitcode(status), "typed": typed == len(answers), "output": output.decode(errors="replace")}))
