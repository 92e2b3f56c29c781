#!/usr/bin/env bash
# bench/exported.sh — the exported identifiers of each library package
# of the module (issue 43 item 7), and where each is used outside its
# package.
#
# Counted, for each package that is not a command (package main), not
# internal/..., and not the bulk module's: what `go doc -all` lists of
# it, one each: every exported func, every exported type, every exported
# const and var (each name of a group), and every exported method of an
# exported type. Struct fields are not counted.
#
# A use is a name in a file outside the package's own non-test files
# (the whole tree: other packages, cmd/, bench/, the bulk module; files
# under testdata/ and //go:build ignore files are not read):
#   code       another package's non-test code names it (pkg.Name);
#   example    else, an Example function names it;
#   othertest  else, another package's tests name it;
#   owntest    else, only the package's own tests name it;
#   none       nothing outside its own code names it.
# A func, type, const or var is found by its qualified name, through the
# name each file imports the package as. A method is found as any
# selector of its name (.Name) outside its package's code, since its
# receiver's type is not known without type checking: a method may be
# counted used when it is not, never the reverse.
#
#   bash bench/exported.sh          the counts per package
#   bash bench/exported.sh -list    each identifier: package, kind, name, use
set -euo pipefail
cd "$(dirname "$0")/.."
exec go run bench/exported.go "$@"
