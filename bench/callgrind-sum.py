#!/usr/bin/env python3
"""callgrind-sum.py - the instructions (Ir) a callgrind profile counts in
the objects whose path matches PATTERN (a regular expression), self cost only (a call's
inclusive cost, the line after calls=, is not its caller's), with the
functions of most: `callgrind-sum.py PATTERN FILE [TOP]` prints the total,
then TOP lines "count function" (default 0).  Code inlined from other
files counts for the function it was inlined into, whatever its file: the
object is what decides, which callgrind_annotate's listing does not give
for every line."""
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
    pattern, path = re.compile(sys.argv[1]), sys.argv[2]
    top = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    obs, fns = {}, {}
    ob = fn = ''
    skip_next = False
    per_fn = {}
    with open(path) as f:
        for line in f:
            line = line.rstrip('\n')
            if line.startswith('ob='):
                ob = names(obs, line[3:])
            elif line.startswith('fn='):
                fn = names(fns, line[3:])
            elif line.startswith(('cob=', 'cfn=', 'cfi=', 'cfl=')):
                target = line[4:]
                names(obs if line.startswith('cob=') else fns if line.startswith('cfn=') else {}, target)
            elif line.startswith('calls='):
                skip_next = True
            elif line and (line[0].isdigit() or line[0] in '+-*'):
                if skip_next:
                    skip_next = False
                    continue
                parts = line.split()
                if len(parts) >= 2 and pattern.search(ob):
                    per_fn[fn] = per_fn.get(fn, 0) + int(parts[1])
    print(sum(per_fn.values()))
    for name, n in sorted(per_fn.items(), key=lambda x: -x[1])[:top]:
        print(n, name)


main()
