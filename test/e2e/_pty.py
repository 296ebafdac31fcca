"""Runs a command in a real pseudo-terminal (python3's pty module: no native npm build needed), waits for a
prompt, types the given bytes, and prints one JSON line: {"code": exit code, "output": everything shown}.
Used by the prompt tests (issue 11): Ctrl-C and Ctrl-D at `Apply these changes?`. Keys are typed once the
prompt shows and the terminal is in raw mode, whatever the machine's speed (issue 17).

usage: python3 _pty.py PROMPT KEYS_AS_JSON_STRING -- command args...
"""
import json, os, pty, select, sys, termios, time

prompt = sys.argv[1].encode()
keys = json.loads(sys.argv[2]).encode()
command = sys.argv[sys.argv.index("--") + 1:]

pid, fd = pty.fork()
if pid == 0:
    os.execvp(command[0], command)

output = b""
typed = False
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
    if not typed and prompt in output and not termios.tcgetattr(fd)[3] & (termios.ICANON | termios.ISIG):
        os.write(fd, keys)
        typed = True
_, status = os.waitpid(pid, 0)
print(json.dumps({"code": os.waitstatus_to_exitcode(status), "typed": typed, "output": output.decode(errors="replace")}))
