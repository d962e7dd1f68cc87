package permissions

import "testing"

// rulesB leans on broad prefixes, globs and exact whole commands.
var rulesB = ruleSet{
	allow: []string{
		"Bash(git:*)", "Bash(npm run:*)", "Bash(python3 -m pytest:*)", "Bash(make:*)",
		"Bash(docker ps)", "Bash(kubectl get *)", "Bash(* --version)", "Bash(echo $(date))",
		"Bash(npm test > /tmp/test.log)", "bash(jq:*)",
	},
	ask: []string{"Bash(git push:*)", "Bash(git commit:*)", "Bash(npm run deploy:*)"},
	deny: []string{
		"Bash(git push origin main:*)", "Bash(rm -rf:*)", "Bash(kubectl delete:*)",
		"Bash(*--no-verify*)", "Bash(git * --hard)",
	},
}

var rulesBRows = []row{
	allowed("git status", "Bash(git:*)"),
	allowed("git", "Bash(git:*)"),
	undecided("gitk"),
	asked("git push", "Bash(git push:*)"),
	denied("git push origin main", "Bash(git push origin main:*)"),
	denied("git push origin main --tags", "Bash(git push origin main:*)"),
	asked("git push origin dev", "Bash(git push:*)"),
	asked("git commit -m x", "Bash(git commit:*)"),
	denied("git commit --no-verify -m x", "Bash(*--no-verify*)"),
	denied("git reset HEAD~1 --hard", "Bash(git * --hard)"),
	allowed("git reset --hard HEAD~1", "Bash(git:*)"),
	allowed("git log && make", ""),
	denied("rm -rf x", "Bash(rm -rf:*)"),
	undecided("rm x"),
	undecided("rm -r x"),
	allowed("kubectl get pods", "Bash(kubectl get *)"),
	allowed("kubectl get pods -n kube-system", "Bash(kubectl get *)"),
	allowed("kubectl get", "Bash(kubectl get *)"),
	undecided("kubectl getx"),
	denied("kubectl delete pod x", "Bash(kubectl delete:*)"),
	allowed("node --version", "Bash(* --version)"),
	allowed("go --version", "Bash(* --version)"),
	denied("go --version && rm -rf /", "Bash(rm -rf:*)"),
	undecided("node --version x"),
	allowed("docker ps", "Bash(docker ps)"),
	undecided("docker ps -a"),
	allowed("python3 -m pytest tests/", "Bash(python3 -m pytest:*)"),
	undecided("python3 -m pytest; python3 evil.py"),
	forced("make && curl x | sh"),
	forced("git status > /tmp/x"),
	undecided("sudo git status"),
	denied("sudo rm -rf x", "Bash(rm -rf:*)"),
	forced("git $(echo push)"),
	allowed("echo $(date)", "Bash(echo $(date))"),
	allowed("echo $(date)  ", "Bash(echo $(date))"),
	forced("echo  $(date)"),
	denied("echo $(date) && rm -rf x", "Bash(rm -rf:*)"),
	forced("echo $(date) && git status"),
	allowed("npm test > /tmp/test.log", "Bash(npm test > /tmp/test.log)"),
	forced("npm test > /tmp/test.log; ls"),
	asked("npm run deploy -- --prod", "Bash(npm run deploy:*)"),
	allowed("npm run build", "Bash(npm run:*)"),
	undecided("FOO=1 make"),
	allowed("jq . x.json", "bash(jq:*)"),
	allowed("make -j8 all && git diff | jq -R .", ""),
	denied("bash -c 'git push origin main'", "Bash(git push origin main:*)"),
	undecided("bash -c 'git status'"),
	denied("find . -exec git commit --no-verify \\;", "Bash(*--no-verify*)"),
}

func TestEvaluateBashRuleSetB(t *testing.T) {
	f := newFixture(t)
	runRows(t, rulesB.parse(t), f, rulesBRows)
}

// TestEvaluateBashWholeTool: the whole tool allowed (or denied) still
// judges what no rule can vouch for.
func TestEvaluateBashWholeTool(t *testing.T) {
	f := newFixture(t)
	allowAll := ruleSet{allow: []string{"Bash"}, deny: []string{"Bash(rm:*)"}, ask: []string{"Bash(git push:*)"}}
	runRows(t, allowAll.parse(t), f, []row{
		allowed("ls", "Bash"),
		allowed("anything at all", "Bash"),
		allowed("ls | sort && make", ""),
		denied("ls && rm x", rm),
		asked("git push", gitPush),
		forced("echo $(ls)"),
		forced("echo x > /etc/x"),
		forced("curl x | sh"),
		forced("ls |"),
	})
	denyAll := ruleSet{deny: []string{"Bash"}, allow: []string{"Bash(ls:*)"}}
	runRows(t, denyAll.parse(t), f, []row{
		denied("ls", "Bash"),
		denied("ls |", "Bash"),
		denied("", "Bash"),
	})
	runRows(t, nil, f, []row{
		undecided("ls"),
		undecided("rm -rf /"),
		forced("echo $(ls)"),
		forced("npm test > /etc/passwd"),
	})
}
