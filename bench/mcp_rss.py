#!/usr/bin/env python3
# bench/mcp_rss.py: peak RSS of docket mcp with large replies (D54).
# Usage: bench/mcp_rss.py pipelined|noread [docket mcp flags]. It runs
# /tmp/docket in /tmp/rss, a tracker whose issue dk-gen has a 5 MB
# description (docket create big -d "$(python3 -c "print('x'*5000000)")").
# Put that id in place of dk-gen below.
import subprocess, sys, time, threading
mode = sys.argv[1]; extra = sys.argv[2:]
init=b'{"jsonrpc":"2.0","id":"i","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n'
req=b'{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"issue_show","arguments":{"id":"dk-gen"}}}\n'
p = subprocess.Popen(['/tmp/docket','mcp']+extra, cwd='/tmp/rss', stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
peak=[0]
def poll():
    while p.poll() is None:
        try:
            for l in open(f'/proc/{p.pid}/status'):
                if l.startswith('VmHWM'): peak[0]=max(peak[0],int(l.split()[1])//1024)
        except Exception: pass
        time.sleep(0.02)
threading.Thread(target=poll,daemon=True).start()
p.stdin.write(init); p.stdin.flush()
if mode == 'pipelined':
    reqs = b''.join(req % k for k in range(200))
    t = threading.Thread(target=lambda: (p.stdin.write(reqs), p.stdin.close())); t.start()
    n = 0; errs = 0; size = 0
    for line in p.stdout:
        if b'"id":"i"' in line: continue
        n += 1; size = max(size, len(line))
        if b'"error"' in line: errs += 1
        if n == 200: break
    t.join(); p.wait(); time.sleep(0.05)
    print(f"pipelined: {n} replies of up to {size>>20} MiB ({errs} errors), peak RSS {peak[0]} MiB")
else:
    stop = time.time() + 30; sent = [0]
    def writer():
        try:
            while time.time() < stop:
                p.stdin.write(req % sent[0]); p.stdin.flush(); sent[0] += 1
        except Exception: pass
    threading.Thread(target=writer, daemon=True).start()
    time.sleep(31)
    print(f"never reads: {sent[0]} requests accepted by the pipe in 30 s, peak RSS {peak[0]} MiB")
    p.kill()
