package permissions_test

// foundSet holds the commands that judging the held-out sets led to: the
// ways past a deny rule or an outside-write check that the first run
// showed or that reading around them found, each fixed, and their
// harmless neighbours, which must stay as they were.
var foundSet = heldoutSet{
	name: "found",
	allow: []string{
		"Bash(ls:*)", "Bash(sudo:*)", "Bash(timeout:*)", "Bash(xargs:*)", "Bash(find:*)", "Bash(sh:*)",
		"Bash(echo:*)", "Bash(env:*)", "Bash(go test:*)", "Bash(cd:*)",
	},
	deny: []string{"Bash(rm *)", "Bash(curl:*)"},
	cases: []heldoutCase{
		// Bash(rm *) is Claude Code's Bash(rm:*): rm alone too
		{"rm", "deny Bash(rm *)"},
		{"xargs rm", "deny Bash(rm *)"},
		{"ls | xargs -n1 rm", "deny Bash(rm *)"},
		{"rmdir x", "ask"},
		// a command name holding a blank is no command a rule names
		{"'go test' ./...", "ask"},
		{`"ls -la"`, "ask"},
		{"go test ./...", "allow"},
		// brace expansion makes the command a wrapper runs too
		{"sudo {rm,-rf,x}", "deny Bash(rm *)"},
		{"timeout 5 {rm,-rf,x}", "deny Bash(rm *)"},
		{"find . -exec {rm,-rf} {} +", "deny Bash(rm *)"},
		{"env {curl,x}", "deny Bash(curl:*)"},
		{"ls {a,b}", "allow"},
		// xargs' optional long values are attached or absent
		{"xargs --replace rm -rf {}", "deny Bash(rm *)"},
		{"xargs --max-lines rm", "deny Bash(rm *)"},
		{"xargs --eof curl x", "deny Bash(curl:*)"},
		{"xargs --replace=@ echo @", "allow"},
		// what input fills in is not in the text
		{`find . -exec {} \;`, "forced"},
		{`find . -name '*.sh' -exec sudo {} \;`, "forced"},
		{"xargs -I% sh -c '%'", "forced"},
		{"xargs -I{} sh -c 'echo {}'", "forced"},
		{"xargs -i sh -c 'echo {}'", "forced"},
		{`find . -exec sh -c 'echo {}' \;`, "forced"},
		{"xargs -I{} sudo {} x", "forced"},
		{"xargs -I{} sh -c 'rm {}'", "deny Bash(rm *)"},
		{`find . -exec sh -c 'echo "$1"' _ {} \;`, "allow"},
		{"xargs -I{} echo {}", "allow"},
		// a wrapper that runs its command elsewhere moves its redirects
		{"env -C /tmp sh -c 'echo x > y'", "forced"},
		{"env --chdir=/tmp sh -c 'echo x > y'", "forced"},
		{"sudo -D /tmp sh -c 'echo > y'", "forced"},
		{"sudo --chdir /tmp sh -c 'echo > y'", "forced"},
		{"env -C sub sh -c 'echo x > ../../y'", "forced"},
		{`find /tmp -execdir sh -c 'echo > y' \;`, "forced"},
		{"env -C sub sh -c 'echo x > y'", "allow"},
		{`find . -exec sh -c 'echo > y' \;`, "allow"},
		{"env -C /tmp ls > y", "allow"},
		// the kernel follows a link before the .. after it; cd, by default,
		// takes the name off
		{"echo x > link/../x", "forced"},
		{"echo x >> ./link/../../x", "forced"},
		{"env -C link/.. sh -c 'echo x > y'", "forced"},
		{"cd link/.. && echo x > y", "allow"},
		{"echo x > sub/../y", "allow"},
		// a command of tests alone is named whole
		{"[[ -f x ]]", "ask"},
	},
}
