#!/usr/bin/env python3
"""Measures the size of checker/'s files and classes.

usage: tools/code-size.py [--max-class N] [--max-file N] [ROOT]

Prints every source file of ROOT (default: checker/) with its line count, and
every class or struct with the lines of its definition plus those of its
members defined out of line (`Name::member(...) { ... }` at file scope), the
largest first. With --max-class or --max-file it exits 1 when a class or a
file is over the limit, so that a test can hold the layout to it.

The parse is textual and relies on clang-format's LLVM layout: a definition's
closing brace is matched by counting braces outside comments, strings and
character literals. That is exact for this code base, and keeps the script
free of a compile database.
"""

import argparse
import os
import re
import sys

CLASS_HEAD = re.compile(r'^\s*(?:template\s*<[^;{]*>\s*)?(class|struct)\s+'
                        r'(?:\[\[[^\]]*\]\]\s*)?([A-Za-z_]\w*)\b[^;()]*$')
# A member defined out of line: `Class::member(` or `Class::~Class(` (the
# return type may stand on the line before, as clang-format puts it).
MEMBER_HEAD = re.compile(r'^(?:[^\s/#].*?\s|[^\s/#].*?[*&])?'
                         r'((?:[A-Za-z_]\w*::)*)([A-Za-z_]\w*)::'
                         r'(~?[A-Za-z_]\w*|operator\S+)\s*\(')


def strip_code(line, state):
    """Returns line with comments and literals blanked; state carries an open
    block comment across lines."""
    out = []
    i = 0
    n = len(line)
    while i < n:
        if state['block']:
            end = line.find('*/', i)
            if end < 0:
                return ''.join(out)
            state['block'] = False
            i = end + 2
            continue
        c = line[i]
        if line.startswith('//', i):
            break
        if line.startswith('/*', i):
            state['block'] = True
            i += 2
            continue
        if c in '"\'':
            # Raw strings do not occur in checker/; skip an ordinary literal.
            j = i + 1
            while j < n and line[j] != c:
                j += 2 if line[j] == '\\' else 1
            i = j + 1
            out.append(' ')
            continue
        out.append(c)
        i += 1
    return ''.join(out)


def code_lines(path):
    state = {'block': False}
    with open(path, encoding='utf-8', errors='replace') as f:
        return [strip_code(l.rstrip('\n'), state) for l in f]


def block_end(lines, start):
    """The index of the line that closes the first brace opened at or after
    line start, or None if the statement ends (';') before any brace."""
    depth = 0
    opened = False
    for i in range(start, len(lines)):
        for c in lines[i]:
            if c == '{':
                depth += 1
                opened = True
            elif c == '}':
                depth -= 1
                if opened and depth == 0:
                    return i
            elif c == ';' and not opened and depth == 0:
                return None
    return None


def measure(root):
    files = {}
    classes = {}  # (file, name) -> lines
    for dirpath, _, names in os.walk(root):
        for name in sorted(names):
            if not name.endswith(('.h', '.cpp')):
                continue
            path = os.path.join(dirpath, name)
            lines = code_lines(path)
            files[path] = len(lines)
            for i, line in enumerate(lines):
                m = CLASS_HEAD.match(line)
                if m and not line.rstrip().endswith(';'):
                    end = block_end(lines, i)
                    if end is not None:
                        key = m.group(2)
                        classes[key] = classes.get(key, 0) + end - i + 1
                    continue
                m = MEMBER_HEAD.match(line)
                if m and not line.startswith((' ', '\t')):
                    end = block_end(lines, i)
                    if end is not None:
                        key = m.group(2)
                        start = i - 1 if i and lines[i - 1].strip() and \
                            not lines[i - 1].rstrip().endswith((';', '}', '{')) \
                            else i
                        classes[key] = classes.get(key, 0) + end - start + 1
    return files, classes


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('root', nargs='?', default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), '..', 'checker'))
    parser.add_argument('--max-class', type=int)
    parser.add_argument('--max-file', type=int)
    parser.add_argument('--top', type=int, default=15)
    args = parser.parse_args()
    root = os.path.normpath(args.root)
    if not os.path.isdir(root):
        print(f'code-size: no folder {root}', file=sys.stderr)
        return 2
    files, classes = measure(root)
    print(f'files ({len(files)}), largest first:')
    for path, n in sorted(files.items(), key=lambda kv: -kv[1])[:args.top]:
        print(f'  {n:6d}  {os.path.relpath(path, root)}')
    print(f'classes ({len(classes)}), largest first:')
    for name, n in sorted(classes.items(), key=lambda kv: -kv[1])[:args.top]:
        print(f'  {n:6d}  {name}')
    status = 0
    if args.max_file is not None:
        for path, n in files.items():
            if n > args.max_file:
                print(f'code-size: {os.path.relpath(path, root)} has {n} lines'
                      f' (limit {args.max_file})', file=sys.stderr)
                status = 1
    if args.max_class is not None:
        for name, n in classes.items():
            if n > args.max_class:
                print(f'code-size: class {name} has {n} lines'
                      f' (limit {args.max_class})', file=sys.stderr)
                status = 1
    return status


if __name__ == '__main__':
    sys.exit(main())
