// Package permissions decides, from allow, ask and deny rules written in
// Claude Code's syntax, whether a tool call may run, must ask, or is refused.
//
// # Rules
//
// A rule names a tool, optionally with a spec in parentheses: Bash(npm run
// test:*), Read(./docs/**), Edit(src/**), WebFetch(domain:example.com),
// mcp__github__create_issue. Claude Code's tool names map onto steer's
// (Read also covers ls, find and grep; Edit covers edit and write); steer's
// own lowercase names name exactly that tool. Bash(X:*) is X alone or X, a
// space and anything; Bash(X) is exactly X; a * elsewhere is any run of
// bytes, and a lone trailing " *" is optional, so that Bash(rm *) is
// Bash(rm:*) as in Claude Code. Parse reads one rule; the caller sets its
// Source.
//
// # Precedence
//
// Evaluate applies deny, then ask, then allow; what no rule covers is
// Undecided and left to the approval mode. There is no built-in allowlist.
//
// # Shell commands
//
// A bash command is parsed with mvdan.cc/sh and judged part by part: every
// simple command anywhere in it (lists, pipes, subshells, groups, bodies of
// loops and functions that may never run, substitutions) and the inner
// command of every wrapper (sudo, env, timeout, xargs, find -exec, sh -c
// 'literal', …) is a Part with its own verdict. A command runs without
// asking only when every part is allowed. Constructs whose effect cannot be
// read from the text — command substitution, eval, a variable in command
// position, a script fed to an interpreter on stdin, a command or script
// that xargs -I or find fills in from its input, a redirect writing outside
// the workspace or to a protected path (resolved as the kernel opens it) —
// force an ask (Decision.Forced) that only a rule matching the whole
// command string can lift.
//
// # Grants
//
// Narrow turns an approved call into the narrowest rules that would have
// allowed it: a command prefix per part, the directory of an outside path,
// the host of a fetch — never the whole tool.
//
// The package is pure apart from resolving symbolic links of rule bases and
// redirect targets, so that they compare with the gate's resolved paths.
package permissions
