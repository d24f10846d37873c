#!/usr/bin/env python3
"""Run one clang-tidy check on a test file and verify it with FileCheck.

Our small equivalent of LLVM's clang-tools-extra/test/clang-tidy/
check_clang_tidy.py, which Debian does not ship. Usage:

  check_clang_tidy.py [--clang-tidy=PATH] [--load=PLUGIN] [--filecheck=PATH]
                      [-check-suffix=S | -check-suffixes=A,B]
                      [-expect-clang-tidy-error] [--match-full-lines]
                      input_file check_name temp_file
                      [-- clang-tidy-args [-- compile-args]]

The input is copied to temp_file plus the input's extension (a .cu stays a
.cu, so clang compiles it as CUDA), with the text of every `// CHECK-...:`
comment removed so that no expectation can match itself; the `//` stays, so
line numbers, and with them [[@LINE-1]], are unchanged. Then

  clang-tidy [--load=PLUGIN] -checks=-*,<check_name> -fix <temp>
             <clang-tidy-args> [--config={}] -- <compile-args>

runs (--config={} unless a config is given, so that no .clang-tidy file near
the test takes part), and FileCheck verifies, for each active suffix S:

  CHECK-FIXES[-S]     against the fixed file;
  CHECK-MESSAGES[-S]  against the diagnostics; any other warning or error fails;
  CHECK-NOTES[-S]     against the diagnostics; any other warning, error or
                      note fails.

A file with no CHECK-MESSAGES, CHECK-NOTES or CHECK-FIXES line for the active
suffixes is a negative test: clang-tidy must print no warning and no error.

clang-tidy exits non-zero on compile errors; that fails the test unless
-expect-clang-tidy-error is given, which then requires the non-zero exit.
clang-tidy's own chatter ("N warnings generated.", "Suppressed N warnings",
"clang-tidy applied N of N suggested fixes") is left out of what FileCheck
sees.
"""

import argparse
import difflib
import os
import re
import shlex
import shutil
import subprocess
import sys
from typing import List, Optional, Tuple

LLVM_BIN = "/usr/lib/llvm-22/bin"

# What clang and clang-tidy print about a run rather than about the code.
CHATTER = re.compile(
    r"^(\d+ (warning|error)s?( and \d+ (warning|error)s?)? generated"
    r"( when compiling for [^.]*)?\."
    r"|Suppressed \d+ warnings? \(.*\)\."
    r"|Use -header-filter=.*|Use -system-headers .*"
    r"|clang-tidy applied \d+ of \d+ suggested fixes\.)$"
)
FIX_IT_NOTE = "note: FIX-IT applied suggested code changes"
CHECK_COMMENT = re.compile(r"// *CHECK-[A-Z0-9-]*:[^\r\n]*")
DIAGNOSTIC = re.compile(r"(warning|error):")
DIRECTIVES = r"(-NEXT|-SAME|-NOT|-DAG|-LABEL|-EMPTY|-COUNT-\d+)?:"


class TestFailure(Exception):
    pass


def find_tool(explicit: Optional[str], name: str) -> str:
    if explicit:
        return explicit
    for candidate in (os.path.join(LLVM_BIN, name), shutil.which(name),
                      shutil.which(name + "-22")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    raise TestFailure("cannot find %s; pass --%s=PATH" % (name, name.lower()))


def split_double_dash(argv: List[str]) -> Tuple[List[str], List[str], List[str]]:
    """own args -- clang-tidy args -- compile args"""
    if "--" not in argv:
        return argv, [], []
    first = argv.index("--")
    own, rest = argv[:first], argv[first + 1:]
    if "--" not in rest:
        return own, rest, []
    second = rest.index("--")
    return own, rest[:second], rest[second + 1:]


def parse_arguments(argv: List[str]):
    own, tidy_args, compile_args = split_double_dash(argv)
    parser = argparse.ArgumentParser(
        prog="check_clang_tidy.py",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--clang-tidy", dest="clang_tidy")
    parser.add_argument("--load", action="append", default=[],
                        help="clang-tidy plugin to load (repeatable)")
    parser.add_argument("--tidy-arg", action="append", default=[],
                        help="a clang-tidy argument the suite adds to every "
                             "test (repeatable): the cuda-tidy wrapper's")
    parser.add_argument("--filecheck")
    parser.add_argument("-check-suffix", "-check-suffixes", dest="suffixes",
                        default=[""], type=lambda s: s.split(","),
                        help="comma-separated list of FileCheck suffixes")
    parser.add_argument("-expect-clang-tidy-error", action="store_true")
    parser.add_argument("--match-full-lines", action="store_true",
                        help="CHECK-FIXES lines must match whole lines")
    parser.add_argument("input_file")
    parser.add_argument("check_name")
    parser.add_argument("temp_file")
    args = parser.parse_args(own)
    for suffix in args.suffixes:
        if suffix and not re.fullmatch(r"[A-Z0-9-]+", suffix):
            parser.error('only A-Z, 0-9 and "-" are allowed in check suffixes, '
                         'but "%s" was given' % suffix)
    return args, tidy_args, compile_args


def prefixes_in(text: str, label: str, suffixes: List[str]) -> List[str]:
    found = []
    for suffix in suffixes:
        prefix = label + ("-" + suffix if suffix else "")
        if re.search(r"(?<![A-Za-z0-9_-])" + re.escape(prefix) + DIRECTIVES,
                     text):
            found.append(prefix)
    return found


def run(command: List[str]) -> Tuple[int, str]:
    print("RUN: " + shlex.join(command))
    sys.stdout.flush()
    completed = subprocess.run(command, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT)
    return completed.returncode, completed.stdout.decode(errors="replace")


def filecheck(filecheck_path: str, input_file: str, check_file: str,
              prefixes: List[str], extra: List[str], what: str) -> None:
    code, output = run([filecheck_path, "--input-file=" + input_file,
                        check_file, "--check-prefixes=" + ",".join(prefixes)]
                       + extra)
    if code != 0:
        print(output)
        raise TestFailure("FileCheck of the %s failed (prefixes %s)"
                          % (what, ", ".join(prefixes)))


def write(path: str, text: str) -> None:
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(text)


def check(args, tidy_args: List[str], compile_args: List[str]) -> None:
    clang_tidy = find_tool(args.clang_tidy, "clang-tidy")
    filecheck_path = find_tool(args.filecheck, "FileCheck")

    with open(args.input_file, encoding="utf-8", newline="") as f:
        input_text = f.read()

    fixes = prefixes_in(input_text, "CHECK-FIXES", args.suffixes)
    messages = prefixes_in(input_text, "CHECK-MESSAGES", args.suffixes)
    notes = prefixes_in(input_text, "CHECK-NOTES", args.suffixes)
    for suffix in args.suffixes:
        tail = "-" + suffix if suffix else ""
        if "CHECK-MESSAGES" + tail in messages and "CHECK-NOTES" + tail in notes:
            raise TestFailure("use either CHECK-MESSAGES%s or CHECK-NOTES%s, "
                              "not both" % (tail, tail))
    expect_no_diagnostic = not (fixes or messages or notes)

    extension = os.path.splitext(args.input_file)[1]
    temp_file = args.temp_file + extension
    original_file = args.temp_file + ".orig" + extension
    cleaned = CHECK_COMMENT.sub("//", input_text)
    write(temp_file, cleaned)
    write(original_file, cleaned)

    if not any(re.match(r"--?config(-file)?=", arg) for arg in tidy_args):
        tidy_args = tidy_args + ["--config={}"]
    command = ([clang_tidy] + ["--load=" + plugin for plugin in args.load]
               + ["-checks=-*," + args.check_name, "-fix", temp_file]
               + args.tidy_arg + tidy_args + ["--"] + compile_args)
    code, raw_output = run(command)
    output_lines = [line for line in raw_output.splitlines()
                    if not CHATTER.match(line)]
    output = "\n".join(output_lines) + "\n"

    print("------------------------ clang-tidy output ------------------------")
    print(raw_output.rstrip("\n"))
    print("-------------------------------------------------------------------")
    if args.expect_clang_tidy_error and code == 0:
        raise TestFailure("clang-tidy was expected to fail but exited with 0")
    if not args.expect_clang_tidy_error and code != 0:
        raise TestFailure(
            "clang-tidy exited with %d (compile errors? see its output above;"
            " pass -expect-clang-tidy-error if that is the point)" % code)

    with open(temp_file, encoding="utf-8", newline="") as f:
        fixed_text = f.read()
    diff = "".join(difflib.unified_diff(
        cleaned.splitlines(keepends=True), fixed_text.splitlines(keepends=True),
        original_file, temp_file))
    print("------------------------------ fixes ------------------------------")
    print(diff.rstrip("\n"))
    print("-------------------------------------------------------------------")

    if expect_no_diagnostic:
        found = [line for line in output_lines if DIAGNOSTIC.search(line)]
        if found:
            raise TestFailure(
                "no CHECK-MESSAGES, CHECK-NOTES or CHECK-FIXES for suffixes %s,"
                " so no diagnostic was expected, but clang-tidy printed:\n  %s"
                % (",".join(repr(s) for s in args.suffixes),
                   "\n  ".join(found)))
        return

    if fixes:
        filecheck(filecheck_path, temp_file, args.input_file, fixes,
                  ["--match-full-lines"] if args.match_full_lines else [],
                  "fixed file")
    if messages:
        messages_file = args.temp_file + ".msg"
        write(messages_file, output)
        filecheck(filecheck_path, messages_file, args.input_file, messages,
                  ["--implicit-check-not={{warning|error}}:"], "messages")
    if notes:
        notes_file = args.temp_file + ".notes"
        write(notes_file, "\n".join(line for line in output_lines
                                    if FIX_IT_NOTE not in line) + "\n")
        filecheck(filecheck_path, notes_file, args.input_file, notes,
                  ["--implicit-check-not={{note|warning|error}}:"], "notes")


def main() -> int:
    args, tidy_args, compile_args = parse_arguments(sys.argv[1:])
    try:
        check(args, tidy_args, compile_args)
    except (TestFailure, OSError) as failure:
        sys.stdout.flush()
        print("check_clang_tidy.py: FAIL: %s: %s"
              % (args.input_file, failure), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
