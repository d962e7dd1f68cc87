package permissions

import (
	"fmt"
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// call judges a simple command. Assignments before it (FOO=1 git status)
// make it a wrapper like env: the whole text is one part and the command
// without them another.
func (w *walker) call(c *syntax.CallExpr, sc scope, s *syntax.Stmt) *cmdPart {
	var args []word
	for _, a := range c.Args {
		args = append(args, sc.convertBraces(a)...)
	}
	assigns := make([]string, len(c.Assigns))
	for i, a := range c.Assigns {
		assigns[i] = sc.assignText(a)
	}
	outer := w.newPart(sc.pos(c), append(assigns, texts(args)...))
	sc.owner = outer
	for _, a := range c.Assigns {
		w.scan(a, sc)
	}
	for _, a := range c.Args {
		w.scan(a, sc)
	}
	if len(args) == 0 {
		return outer
	}
	self := outer
	if len(assigns) > 0 {
		outer.wrapper = true
		self = w.newPart(args[0].pos, texts(args))
	}
	w.simple(self, args, sc, heredocBody(s))
	return outer
}

// simple judges the command args (already recorded as p): what its head
// says about it, then the command a wrapper runs, recursively. body is the
// statement's literal heredoc or here-string, "" when it has none.
func (w *walker) simple(p *cmdPart, args []word, sc scope, body string) {
	head := args[0]
	switch {
	case sc.depth >= maxNesting:
		w.force(p, sc, nil, reasonTooDeep)
		return
	case !head.lit:
		w.force(p, sc, nil, "expansion in command position: "+head.text)
		return
	case head.glob:
		w.force(p, sc, nil, "glob in command position: "+head.text)
		return
	case sc.replaceHead && strings.Contains(head.text, sc.replace):
		w.force(p, sc, nil, "the command is filled in at run time: "+head.text)
		return
	}
	name := path.Base(head.text)
	switch name {
	case "eval":
		w.force(p, sc, nil, reasonEval)
		if rest := args[1:]; len(rest) > 0 && allLit(rest) {
			p.wrapper = true
			w.nested(p, strings.Join(texts(rest), " "), rest[0].pos, sc)
		}
		return
	case "cd", "pushd", "popd":
		w.chdir(name, args[1:])
	}
	u := unwrap(name, args)
	if u.elsewhere {
		defer w.runElsewhere(u.chdir)()
	}
	switch {
	case u.script != nil:
		p.wrapper = true
		switch {
		case !u.script.lit:
			w.force(p, sc, nil, fmt.Sprintf("%s runs a script that is not literal: %s", name, u.script.text))
		case sc.replace != "" && strings.Contains(u.script.text, sc.replace):
			// What fills it in may be any command, but what the text
			// holds is still read, so its denied commands stay denied.
			w.force(p, sc, nil, fmt.Sprintf("%s runs a script filled in at run time: %s", name, u.script.text))
			w.nested(p, u.script.text, u.script.pos+1, sc)
		default:
			w.nested(p, u.script.text, u.script.pos+1, sc)
		}
		return
	case len(u.inners) > 0:
		p.wrapper = true
		if u.clearsStdin {
			sc.stdin = ""
		}
		switch {
		case u.replace != "":
			sc.replace, sc.replaceHead = u.replace, u.replaceHead
		case sc.replace != "":
			// The inner command's name is an argument of the command
			// that input fills in: xargs -I{} sudo {}.
			sc.replaceHead = true
		}
		sc.depth++
		for _, in := range u.inners {
			w.simple(w.newPart(in[0].pos, texts(in)), in, sc, body)
		}
		return
	}
	w.interpreter(p, name, args[1:], sc, body)
}

// interpreter forces an ask when the command is an interpreter reading its
// program from a pipe or heredoc (curl … | sh, python3 <<EOF): what runs is
// not in the command. A literal script fed to a shell is walked too, so its
// denied commands are still denied.
func (w *walker) interpreter(p *cmdPart, name string, args []word, sc scope, body string) {
	if sc.stdin == "" {
		return
	}
	in, ok := interpreterOf(name)
	if !ok || in.hasProgram(args) {
		return
	}
	if sc.stdin == stdinPipe {
		w.force(p, sc, nil, "pipe into an interpreter: "+name)
		return
	}
	w.force(p, sc, nil, "heredoc feeding an interpreter: "+name)
	if in.shell && body != "" {
		w.nested(p, body, p.pos, sc)
	}
}

// heredocBody returns s's heredoc or here-string when it is literal (the
// script an interpreter on the statement would run), else "".
func heredocBody(s *syntax.Stmt) string {
	if s == nil {
		return ""
	}
	for _, r := range s.Redirs {
		var wd *syntax.Word
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			wd = r.Hdoc
		case syntax.WordHdoc:
			wd = r.Word
		}
		if wd == nil {
			continue
		}
		if text, _, ok := literal(wd.Parts, r.Op != syntax.WordHdoc); ok {
			return text
		}
	}
	return ""
}

// runElsewhere moves the base of relative redirects to dir (unknown when
// nil or not literal) for the commands a wrapper runs there (env -C DIR,
// sudo -D DIR, find -execdir), and returns what puts it back.
func (w *walker) runElsewhere(dir *word) (restore func()) {
	saved := w.base
	w.base = ""
	if dir != nil && dir.lit {
		if to, ok := targetPath(dir.text, saved, w.env.Home); ok {
			w.base = physical(to)
		}
	}
	return func() { w.base = saved }
}

// chdir follows a cd, pushd or popd for the redirects after it: a literal
// directory moves the base, anything else makes it unknown.
func (w *walker) chdir(name string, args []word) {
	for len(args) > 0 && strings.HasPrefix(args[0].text, "-") && len(args[0].text) > 1 && args[0].lit {
		if args[0].text == "--" {
			args = args[1:]
			break
		}
		args = args[1:]
	}
	switch {
	case name == "popd" || name == "pushd" && len(args) == 0:
		w.base = ""
	case len(args) == 0:
		w.base = w.env.Home
	case !args[0].lit || args[0].text == "-" || strings.HasPrefix(args[0].text, "+"):
		w.base = ""
	default:
		dir, ok := resolveTarget(args[0].text, w.base, w.env.Home)
		if !ok {
			dir = ""
		}
		w.base = dir
	}
}
