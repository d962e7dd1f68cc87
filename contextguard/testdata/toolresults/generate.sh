#!/usr/bin/env bash
# Regenerates the corpus of real tool outputs that TestTruncateCorpus reads:
#   contextguard/testdata/toolresults/generate.sh   (from the repository root)
# Each file is a command's combined stdout and stderr, framed the way steer's
# bash tool returns it: "\n\n[exit code N]" follows a failure. The fixtures
# (broken Go, Rust and C code, scripts that crash) are written to a scratch
# directory first. Outputs depend on the machine; manifest.json labels each
# tail by hand and does not change when they are regenerated elsewhere, so
# look at the tails again after regenerating.
set -u
REPO=$(git rev-parse --show-toplevel)
OUT=$REPO/contextguard/testdata/toolresults
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT

fixtures() {
  mkdir -p "$W/gobuild" && (cd "$W/gobuild" && go mod init example.com/broken >/dev/null 2>&1)
  for i in $(seq 1 40); do
    mkdir -p "$W/gobuild/p$i"
    printf 'package p%d\n\nimport "fmt"\n\nfunc F%d(n int) string {\n\tvar unused%d int\n\treturn fmt.Sprintf("%%d", undefinedThing%d) + n\n}\n\nfunc G%d() { return 3 }\n' \
      "$i" "$i" "$i" "$i" "$i" > "$W/gobuild/p$i/a.go"
  done

  (cd "$W" && cargo new --quiet rsbad && cargo new --quiet --lib rstest)
  python3 - "$W" <<'EOF'
import sys
w = sys.argv[1]
main = ['fn main() {']
for i in range(60):
    main += [f'    let s{i}: String = vec_{i};', f'    let n{i}: u8 = "x{i}";']
open(f'{w}/rsbad/src/main.rs', 'w').write('\n'.join(main + ['}']) + '\n')
lib = ['pub fn add(a: i32, b: i32) -> i32 { a + b }', '#[cfg(test)]', 'mod tests {', '    use super::*;']
for i in range(300):
    want, msg = (i + 2, f', "case {i}"') if i % 50 == 7 else (i + 1, '')
    lib.append(f'    #[test] fn t{i}() {{ assert_eq!(add({i}, 1), {want}{msg}); }}')
open(f'{w}/rstest/src/lib.rs', 'w').write('\n'.join(lib + ['}']) + '\n')
EOF

  mkdir -p "$W/gofail" && (cd "$W/gofail" && go mod init example.com/gofail >/dev/null 2>&1)
  cat > "$W/gofail/x_test.go" <<'EOF'
package gofail

import (
	"fmt"
	"testing"
)

func TestTable(t *testing.T) {
	for i := 0; i < 400; i++ {
		t.Run(fmt.Sprintf("case_%03d", i), func(t *testing.T) {
			t.Logf("checking input %d with the reference table", i)
			if i%97 == 13 {
				t.Fatalf("case %d: got %d, want %d", i, i*2, i*2+1)
			}
		})
	}
}
EOF
  mkdir -p "$W/gopanic" && (cd "$W/gopanic" && go mod init example.com/gopanic >/dev/null 2>&1)
  cat > "$W/gopanic/main.go" <<'EOF'
package main

import "fmt"

type table struct{ rows []int }

func (t *table) at(i int) int { return t.rows[i] }

func main() {
	t := &table{rows: make([]int, 3000)}
	for i := 0; i <= 3000; i++ {
		fmt.Printf("row %04d value %d\n", i, t.at(i))
	}
}
EOF
  cat > "$W/trace.py" <<'EOF'
import json
def load(i):
    record = {"id": i, "name": f"item-{i}", "tags": ["a", "b"]}
    if i == 2500:
        return json.loads("{not json")
    return record
for i in range(3000):
    r = load(i)
    print(f"loaded {r['id']:05d} {r['name']} tags={','.join(r['tags'])}")
EOF
  cat > "$W/ok.py" <<'EOF'
for i in range(6000):
    print(f"processed row {i:05d} checksum {i*7919 % 65521:05d}")
print("wrote 6000 rows to out.csv")
EOF
  cat > "$W/throw.js" <<'EOF'
function parse(line, n) {
  if (n === 2800) throw new TypeError(`cannot read field 'id' of line ${n}: ${line}`);
  return { n, line };
}
for (let n = 0; n < 3000; n++) {
  const r = parse(`field-${n},value-${n * 3}`, n);
  console.log(`parsed ${r.n} -> ${r.line}`);
}
EOF
  for i in $(seq 1 30); do
    printf '#include <stdio.h>\nstruct point { int x, y; };\nint main%d(void) {\n    struct point p = {1, 2};\n    printf("%%d\\n", p.z%d);\n    undeclared_fn(p);\n    int *q = 3.5;\n    return p;\n}\n' \
      "$i" "$i" > "$W/bad$i.c"
  done
  printf 'all:\n\t@for i in $$(seq 1 2000); do echo "compiling module_$$i.o from module_$$i.c"; done\n\t@echo "linking app" && false\n' > "$W/Makefile"
  tar czf "$W/include.tgz" -C / usr/include/linux 2>/dev/null
}

run() { # name dir command
  local name=$1 dir=$2 out rc
  out=$(cd "$dir" && bash -c "$3" 2>&1); rc=$?
  if [ $rc -ne 0 ]; then out="$out"$'\n\n'"[exit code $rc]"; fi
  printf '%s' "$out" | gzip -9 > "$OUT/$name.txt.gz"
  printf '%-22s %8d bytes, exit %d\n' "$name" ${#out} $rc
}

fixtures
run cargo-build-errors   "$W/rsbad"   'cargo build --offline --color never'
run cargo-test-failed    "$W/rstest"  'cargo test --offline --color never'
run cat-go-source        /            'cat "$(go env GOROOT)/src/net/http/transport.go"'
run cat-spec-html        /            'cat "$(go env GOROOT)/doc/go_spec.html"'
run dpkg-list            /            'dpkg -l'
run du-a-sort            /            'du -a /usr/share/doc | sort'
run du-ach-total         /            'du -ach /usr/share/doc'
run find-usr-lib         /            'find /usr/lib/x86_64-linux-gnu'
run gcc-errors           "$W"         'gcc -c bad*.c'
run git-log-stat         "$REPO"      'git log --stat -n 120 46eec75'
run go-build-errors      "$W/gobuild" 'go build ./...'
run go-build-x           "$W/gopanic" 'go build -a -x -o /dev/null . 2>&1 | head -c 300000'
run go-doc-http          /            'go doc -all net/http'
run go-list-json         "$REPO"      'go list -json ./agent/...'
run go-mod-download-json "$REPO"      'go mod download -json'
run go-run-panic         "$W/gopanic" 'go run .'
run go-test-fail-v       "$W/gofail"  'go test -count=1 -v .'
run go-test-pass-v       "$REPO"      'go test -count=1 -v ./failover/'
run go-vet-errors        "$W/gobuild" 'go vet ./p1 ./p2'
run grep-todo            /            'grep -rn "TODO" "$(go env GOROOT)/src/net"'
run ls-laR-include       /            'ls -laR /usr/include/linux'
run make-fail            "$W"         'make'
run node-throw           "$W"         'node throw.js'
run npm-ls-global        /            'npm ls -g --all'
run objdump-ls           /            'objdump -d /usr/bin/ls | head -n 4000'
run pip-list-json        /            'pip list --format=json'
run pip-show-files       /            'pip show -f pip'
run python-ok-log        "$W"         'python3 ok.py'
run python-traceback     "$W"         'python3 trace.py'
run tar-list             "$W"         'tar -tvzf include.tgz'
run wc-lines-total       "$(go env GOROOT)/src" 'wc -l $(find net crypto -name "*.go" | sort)'
