#!/usr/bin/env python3
"""callgrind-sum.py - the instructions (Ir) a callgrind profile counts in
the objects whose path matches PATTERN (a regular expression), self cost only (a call's
inclusive cost, the line after calls=, is not its caller's), with the
functions of most: `callgrind-sum.py [--calls CALLEES] [--files] PATTERN FILE
[TOP]` prints the total, then TOP lines "count function" (default 0).  With
--calls, the inclusive cost of their calls into objects matching CALLEES
(the C library: malloc, memcpy, locks) counts too, as "-> function".  Code inlined from other
files counts for the function it was inlined into, whatever its file: the
object is what decides, which callgrind_annotate's listing does not give
for every line.  With --files, the lines are "count source-file" instead:
the file each instruction's line is in, the inlined one's (a function
that inlines the whole call spreads over the files of its parts)."""
import os
import re
import sys


def names(table, spec):
    """'(n) name' defines id n, '(n)' refers to it; plain names stand alone."""
    m = re.match(r'\((\d+)\)(?:\s+(.*))?$', spec)
    if not m:
        return spec
    if m.group(2) is not None:
        table[m.group(1)] = m.group(2)
    return table.get(m.group(1), spec)


def main():
    args = sys.argv[1:]
    callees = None
    if args[:1] == ['--calls']:
        callees, args = re.compile(args[1]), args[2:]
    by_file = args[:1] == ['--files']
    if by_file:
        args = args[1:]
    pattern, path = re.compile(args[0]), args[1]
    top = int(args[2]) if len(args) > 2 else 0
    obs, fns, files = {}, {}, {}
    ob = fn = cob = cfn = fl = src = ''
    skip_next = False
    per_fn = {}
    with open(path) as f:
        for line in f:
            line = line.rstrip('\n')
            if line.startswith('ob='):
                ob = names(obs, line[3:])
            elif line.startswith('fl='):
                fl = src = names(files, line[3:])
            elif line.startswith(('fi=', 'fe=')):
                src = names(files, line[3:])
            elif line.startswith('fn='):
                fn = names(fns, line[3:])
                src = fl
            elif line.startswith(('cob=', 'cfn=', 'cfi=', 'cfl=')):
                target = line[4:]
                name = names(obs if line.startswith('cob=') else fns if line.startswith('cfn=') else files, target)
                if line.startswith('cob='):
                    cob = name
                elif line.startswith('cfn='):
                    cfn = name
            elif line.startswith('calls='):
                skip_next = True
            elif line and (line[0].isdigit() or line[0] in '+-*'):
                if skip_next:
                    skip_next = False
                    parts = line.split()
                    # the callee's object is the caller's unless cob= named it
                    if callees and len(parts) >= 2 and pattern.search(ob) and \
                            callees.search(cob or ob) and not pattern.search(cob or ob):
                        key = '-> ' + cfn
                        per_fn[key] = per_fn.get(key, 0) + int(parts[1])
                    cob = ''
                    continue
                parts = line.split()
                if len(parts) >= 2 and pattern.search(ob):
                    key = os.path.basename(src) if by_file else fn
                    per_fn[key] = per_fn.get(key, 0) + int(parts[1])
    print(sum(per_fn.values()))
    for name, n in sorted(per_fn.items(), key=lambda x: -x[1])[:top]:
        print(n, name)


main()
