#!/usr/bin/env python3
# ===- test/lint/structure.py - the source tree's size and layering rules -===#
#
# Issue 24's static checks, run as the CTest test lint/structure:
#   1. no source file in runtime/, utils/ or plugin/ over MAX_FILE_LINES lines;
#   2. no function over MAX_FUNCTION_LINES lines (the lines strictly between
#      its body's braces; a body is a '{' at namespace or class scope whose
#      head ends like a function's: ')' and qualifiers, or a constructor's
#      initialiser list). Lambdas and local classes count towards the
#      function they are in;
#   3. the plugin includes nothing from runtime/ (a quoted #include that is
#      not found beside the file, in plugin/ or in include/ but is under
#      runtime/, or a path naming runtime/; plugin/CMakeLists.txt naming
#      runtime/).
# A heuristic, not a parser, but one that can fail: --self-test runs it on
# synthetic sources that break each rule.
#
# Usage: structure.py [--root DIR] | --self-test
#
# ===----------------------------------------------------------------------===#
import argparse
import os
import re
import sys
import tempfile

MAX_FILE_LINES = 800
MAX_FUNCTION_LINES = 150
DIRS = ("runtime", "utils", "plugin")
SUFFIXES = (".c", ".cc", ".cpp", ".h", ".hpp", ".def", ".inc")

# Functions still over the limit, each to be split along its own comment
# headings and then removed from here (issue 24). Keyed by (path, name).
ALLOWED_FUNCTIONS = {
}
# Files over the limit, likewise (none today).
ALLOWED_FILES = {
    # path: why
}


def strip(text):
    """Text with comments, string and character literals blanked (line
    breaks kept, so line numbers stay)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "R" and text.startswith('R"', i) and (
                i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            if not m:
                out.append(c)
                i += 1
                continue
            end = ")" + m.group(1) + '"'
            j = text.find(end, i + m.end())
            j = n if j < 0 else j + len(end)
            out.append('""' + re.sub(r"[^\n]", " ", text[i + 2:j]))
            i = j
        elif c in "\"'":
            if c == "'" and i > 0 and text[i - 1].isalnum():
                out.append(c)  # a digit separator: 1'000
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * max(0, min(j, n) - i - 1) + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


SCOPE_HEAD = re.compile(
    r'(^|[\s>;])(namespace|class|struct|union|enum)\b[^()=]*$|extern\s*"\s*"\s*$')
FUNCTION_HEAD = re.compile(
    r"\)\s*(const|noexcept(\s*\([^)]*\))?|override|final|mutable|volatile|&|&&"
    r"|->\s*[^;{}]*|\s)*$")
# A constructor's head: ") : A(a), B{b}" -- ends in ')' or '}'; while it
# ends in a name, the brace opens a member's initialiser.
INITIALISER = re.compile(r"\)\s*(noexcept\s*)?:\s*[A-Za-z_].*[)}]$", re.S)
IN_INITIALISER = re.compile(r"\)\s*(noexcept\s*)?:\s*[A-Za-z_].*[\w>]$", re.S)


def functions(text):
    """(name, first line, lines between the braces) of each function body at
    namespace or class scope of C++ source text."""
    s = strip(text)
    # Preprocessor lines: blanked (a macro body's braces are not scope).
    s = re.sub(r"(?m)^[ \t]*#(?:.*\\\n)*.*$", lambda m: re.sub(r"[^\n]", " ",
                                                              m.group(0)), s)
    found = []
    stack = []  # per open brace: (kind, line), kind 'scope', 'function', ...
    head_start = 0
    line = 1

    def outer():
        return all(k == "scope" for k, _ in stack)

    for i, c in enumerate(s):
        if c == "\n":
            line += 1
        elif c == ";":
            if outer():
                head_start = i + 1
        elif c == "{":
            kind = "other"
            at_scope = outer()
            if at_scope:
                head = s[head_start:i].strip()
                if SCOPE_HEAD.search(head):
                    kind = "scope"
                elif FUNCTION_HEAD.search(head) or INITIALISER.search(head):
                    kind = "function"
                    name = re.findall(r"([~A-Za-z_][\w:~]*)\s*\(", head)
                    found.append([name[0] if name else "?", line, line])
                elif IN_INITIALISER.search(head):
                    kind = "member"
                if kind != "member":
                    head_start = i + 1
            stack.append((kind, line))
        elif c == "}":
            kind = "other"
            if stack:
                kind, _ = stack.pop()
                if kind == "function" and outer():
                    found[-1][2] = line
            if outer() and kind != "member":
                head_start = i + 1
    return [(n, a, max(0, b - a - 1)) for n, a, b in found]


def source_files(root):
    for d in DIRS:
        for base, _, names in os.walk(os.path.join(root, d)):
            for name in sorted(names):
                if name.endswith(SUFFIXES):
                    yield os.path.join(base, name)


def quoted_includes(text):
    return re.findall(r'(?m)^\s*#\s*include\s*"([^"]+)"', text)


def check(root):
    problems = []
    long_seen = set()
    for path in source_files(root):
        rel = os.path.relpath(path, root)
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        lines = text.count("\n")
        if lines > MAX_FILE_LINES and rel not in ALLOWED_FILES:
            problems.append(f"{rel}: {lines} lines (at most {MAX_FILE_LINES})")
        if not rel.endswith(".def"):
            for name, first, length in functions(text):
                if length > MAX_FUNCTION_LINES:
                    long_seen.add((rel, name))
                if length > MAX_FUNCTION_LINES and \
                        (rel, name) not in ALLOWED_FUNCTIONS:
                    problems.append(
                        f"{rel}:{first}: function {name}: {length} lines "
                        f"(at most {MAX_FUNCTION_LINES})")
        if rel.startswith("plugin" + os.sep):
            for inc in quoted_includes(text):
                near = [os.path.dirname(path), os.path.join(root, "plugin"),
                        os.path.join(root, "include")]
                if "runtime/" in inc or (
                        not any(os.path.exists(os.path.join(d, inc))
                                for d in near) and
                        any(os.path.exists(os.path.join(b, inc))
                            for b, _, _ in os.walk(os.path.join(root, "runtime")))):
                    problems.append(f"{rel}: includes \"{inc}\" from runtime/ "
                                    "(the plugin knows nothing of the run time)")
    # An allowance no longer needed goes (so the list only shrinks).
    if os.path.isdir(os.path.join(root, "runtime", "lib")):
        for rel, name in sorted(set(ALLOWED_FUNCTIONS) - long_seen):
            problems.append(f"{rel}: {name} is allowed to be long but is not "
                            "(any more): remove it from ALLOWED_FUNCTIONS")
    cmake = os.path.join(root, "plugin", "CMakeLists.txt")
    if os.path.exists(cmake):
        with open(cmake, encoding="utf-8") as f:
            for n, l in enumerate(f, 1):
                code = l.split("#", 1)[0]
                if re.search(r"(^|[/\s{}])runtime/|otter_runtime|otter_core",
                             code):
                    problems.append(f"plugin/CMakeLists.txt:{n}: names the "
                                    "runtime")
    return problems


def self_test():
    """The checks on synthetic trees: each rule broken once must be found,
    and a tree that keeps them must pass."""
    ok = True

    def expect(cond, what):
        nonlocal ok
        if not cond:
            print("self-test FAILED:", what)
            ok = False

    body = "\n".join(f"  x += {i};" for i in range(MAX_FUNCTION_LINES))
    long_fn = ("namespace a {\nstruct S {\n  int f() const {\n" + body +
               "\n  }\n};\nint g(int x) {\n" + body + "\n  x++;\n  return x;\n}\n"
               "static const int T[] = {\n" + ",\n".join("1" * 1 for _ in
                                                        range(200)) + "};\n}\n")
    fs = functions(long_fn)
    expect([(n, l) for n, _, l in fs] ==
           [("f", MAX_FUNCTION_LINES), ("g", MAX_FUNCTION_LINES + 2)],
           f"function lengths of the synthetic file: {fs}")
    tricky = ('int h() {\n  const char *s = "{{{";\n  char c = \'{\';\n'
              '  // }\n  /* { */\n  auto L = [] { return 1; };\n'
              '  return R"x({)x"[0] + L();\n}\n'
              'Foo::Foo(int A) : A(A), B{A} {\n  f();\n}\n')
    expect([(n, l) for n, _, l in functions(tricky)] ==
           [("h", 6), ("Foo::Foo", 1)],
           f"strings, comments and lambdas: {functions(tricky)}")
    with tempfile.TemporaryDirectory() as root:
        def write(rel, text):
            p = os.path.join(root, rel)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "w") as f:
                f.write(text)
        write("runtime/core/state.h", "int s;\n")
        write("include/otter/x.h", "int x;\n")
        write("plugin/P.cpp", '#include "otter/x.h"\nint p() {\n  return 1;\n}\n')
        write("utils/u.cpp", "int u;\n")
        write("plugin/CMakeLists.txt", "add_library(p P.cpp) # not runtime/\n")
        expect(check(root) == [], f"a clean tree: {check(root)}")
        write("plugin/Q.cpp", '#include "core/state.h"\n')
        write("utils/big.cpp", "int u;\n" * (MAX_FILE_LINES + 1))
        write("runtime/long.cpp", long_fn)
        write("plugin/CMakeLists.txt",
              "include_directories(${SRC}/runtime/core)\n")
        got = check(root)
        for what in ("plugin/Q.cpp: includes", "utils/big.cpp: 801 lines",
                     f"runtime/long.cpp:{MAX_FUNCTION_LINES + 6}: function g: 152 lines",
                     "plugin/CMakeLists.txt:1"):
            expect(any(p.startswith(what) for p in got),
                   f"'{what}' not found in {got}")
        expect(len(got) == 4, f"four problems expected: {got}")
    print("self-test passed" if ok else "self-test failed")
    return 0 if ok else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--root", default=os.path.join(os.path.dirname(
        os.path.abspath(__file__)), "..", ".."))
    ap.add_argument("--self-test", action="store_true")
    a = ap.parse_args()
    if a.self_test:
        return self_test()
    problems = check(os.path.abspath(a.root))
    for p in problems:
        print(p)
    print(f"{len(problems)} problem(s)" if problems else "structure: ok")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
