package permissions

import (
	"fmt"
	"sort"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// cmdPart is one simple command found in a bash command, before rules judge
// it, or a construct that forces an ask outside any simple command.
type cmdPart struct {
	pos       int      // offset in the top-level command, for source order
	words     []string // as judged: literal words unquoted, others as written
	wrapper   bool     // judged as itself; its inner command is another part
	construct bool     // not a command but a construct (a redirect of a group, a loop's word list)
	forced    []string // why this part asks whatever the rules say
}

// text is the part as rules match it: its words joined by single spaces.
func (p *cmdPart) text() string { return strings.Join(p.words, " ") }

// maxNesting bounds scripts within scripts (bash -c 'bash -c …', eval)
// and wrappers within wrappers (sudo timeout 5 nice …); deeper, a command
// asks rather than being read further.
const maxNesting = 16

// walker collects the parts of one bash command.
type walker struct {
	env   Env
	parts []*cmdPart
	// base is the directory relative redirect targets resolve against:
	// the workspace, changed by each literal cd on the way; "" once a cd
	// went somewhere the text does not say.
	base string
}

// scope is where the walker is: the source being read and what surrounds
// the node at hand.
type scope struct {
	src   string // the script text the nodes' offsets refer to
	off   int    // the offset of src in the top-level command
	depth int    // scripts within scripts so far
	// stdin says what feeds the commands' standard input when it is a
	// script an interpreter could run: "pipe", "heredoc", or "".
	stdin string
	// owner is the simple command whose words are being read, which forced
	// reasons attach to; nil outside one.
	owner *cmdPart
	// replace is the string a wrapper around the command replaces with its
	// input in the command's arguments (xargs -I S, find's {}), and in its
	// name when replaceHead is set: a script that holds it is built at run
	// time, not read from the text.
	replace     string
	replaceHead bool
}

// pos returns n's offset in the top-level command.
func (sc scope) pos(n syntax.Node) int { return sc.off + int(n.Pos().Offset()) }

// snippet returns n's source text.
func (sc scope) snippet(n syntax.Node) string {
	from, to := int(n.Pos().Offset()), int(n.End().Offset())
	if from < 0 || to > len(sc.src) || from > to {
		return ""
	}
	return sc.src[from:to]
}

// analyze splits a bash command into its parts in source order. A command
// that does not parse returns the parser's error and no parts.
func analyze(command string, env Env) ([]*cmdPart, error) {
	w := &walker{env: env, base: env.Workspace}
	if err := w.script(command, scope{}); err != nil {
		return nil, err
	}
	sort.SliceStable(w.parts, func(i, j int) bool { return w.parts[i].pos < w.parts[j].pos })
	return w.parts, nil
}

// script parses src and walks it; sc.off places it in the top-level command.
func (w *walker) script(src string, sc scope) error {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return err
	}
	sc.src, sc.owner = src, nil
	w.stmts(f.Stmts, sc)
	return nil
}

// nested walks a script the command at p runs (sh -c, eval, a heredoc fed
// to a shell), or forces an ask when it cannot be read.
func (w *walker) nested(p *cmdPart, src string, at int, sc scope) {
	if sc.depth >= maxNesting {
		w.force(p, sc, nil, reasonTooDeep)
		return
	}
	inner := scope{off: at, depth: sc.depth + 1, stdin: sc.stdin}
	if err := w.script(src, inner); err != nil {
		w.force(p, sc, nil, fmt.Sprintf("the inner script does not parse: %v", err))
	}
}

// newPart records a part for words at pos.
func (w *walker) newPart(pos int, words []string) *cmdPart {
	p := &cmdPart{pos: pos, words: words}
	w.parts = append(w.parts, p)
	return p
}

// force records a reason to ask on p, or on a construct part made of node's
// source when no simple command owns it.
func (w *walker) force(p *cmdPart, sc scope, node syntax.Node, reason string) {
	reason = oneLine(reason)
	if p == nil {
		p = &cmdPart{construct: true}
		if node != nil {
			p.pos, p.words = sc.pos(node), []string{sc.snippet(node)}
		}
		w.parts = append(w.parts, p)
	}
	for _, r := range p.forced {
		if r == reason {
			return
		}
	}
	p.forced = append(p.forced, reason)
}

func (w *walker) stmts(list []*syntax.Stmt, sc scope) {
	for _, s := range list {
		w.stmt(s, sc)
	}
}

// stmt walks one statement: its command, then its redirects, which resolve
// against the directory in effect before the command (a cd in the command
// itself changes it only for what follows).
func (w *walker) stmt(s *syntax.Stmt, sc scope) *cmdPart {
	base := w.base
	sc.stdin = stdinOf(s, sc.stdin)
	owner := w.command(s.Cmd, sc, s)
	for _, r := range s.Redirs {
		w.redirect(r, sc, base, owner)
	}
	return owner
}

// command walks one command and returns the part its redirects belong to
// (nil for compound commands).
func (w *walker) command(c syntax.Command, sc scope, s *syntax.Stmt) *cmdPart {
	sc.owner = nil
	switch c := c.(type) {
	case *syntax.CallExpr:
		return w.call(c, sc, s)
	case *syntax.DeclClause:
		return w.decl(c, sc)
	case *syntax.BinaryCmd:
		w.stmt(c.X, sc)
		if c.Op == syntax.Pipe || c.Op == syntax.PipeAll {
			sc.stdin = stdinPipe
		}
		w.stmt(c.Y, sc)
	case *syntax.Block:
		w.stmts(c.Stmts, sc)
	case *syntax.Subshell:
		w.stmts(c.Stmts, sc)
	case *syntax.IfClause:
		for ; c != nil; c = c.Else {
			w.stmts(c.Cond, sc)
			w.stmts(c.Then, sc)
		}
	case *syntax.WhileClause:
		w.stmts(c.Cond, sc)
		w.stmts(c.Do, sc)
	case *syntax.ForClause:
		w.scan(c.Loop, sc)
		w.stmts(c.Do, sc)
	case *syntax.CaseClause:
		w.scan(c.Word, sc)
		for _, it := range c.Items {
			for _, p := range it.Patterns {
				w.scan(p, sc)
			}
			w.stmts(it.Stmts, sc)
		}
	case *syntax.FuncDecl:
		sc.stdin = ""
		w.stmt(c.Body, sc)
	case *syntax.TimeClause:
		return w.timed(c, sc)
	case *syntax.CoprocClause:
		if c.Name != nil {
			w.scan(c.Name, sc)
		}
		w.stmt(c.Stmt, sc)
	case *syntax.TestDecl:
		w.scan(c.Description, sc)
		w.stmt(c.Body, sc)
	case *syntax.ArithmCmd, *syntax.TestClause, *syntax.LetClause:
		// Tests and arithmetic run nothing but what substitutions in them run.
		w.scan(c, sc)
	}
	return nil
}

// timed judges the time keyword as a wrapper of the simple command it times.
func (w *walker) timed(c *syntax.TimeClause, sc scope) *cmdPart {
	head := []string{"time"}
	if c.PosixFormat {
		head = append(head, "-p")
	}
	p := w.newPart(sc.pos(c), head)
	if c.Stmt == nil {
		return p
	}
	if inner := w.stmt(c.Stmt, sc); inner != nil && !inner.construct {
		p.words = append(head, inner.words...)
		p.wrapper = true
	}
	return p
}

// decl judges a declaration (export, local, declare, readonly, …) as a
// simple command of its variant and arguments.
func (w *walker) decl(c *syntax.DeclClause, sc scope) *cmdPart {
	p := w.newPart(sc.pos(c), []string{c.Variant.Value})
	sc.owner = p
	for _, a := range c.Args {
		p.words = append(p.words, sc.assignText(a))
		w.scan(a, sc)
	}
	return p
}

// assignText is an assignment as judged: NAME=value with a literal value
// unquoted, else as written.
func (sc scope) assignText(a *syntax.Assign) string {
	switch {
	case a.Naked && a.Name != nil:
		return a.Name.Value
	case a.Naked && a.Value != nil:
		return sc.convert(a.Value).text
	case a.Name == nil || a.Index != nil || a.Array != nil:
		return sc.snippet(a)
	}
	op := "="
	if a.Append {
		op = "+="
	}
	value := ""
	if a.Value != nil {
		v := sc.convert(a.Value)
		if !v.lit {
			return sc.snippet(a)
		}
		value = v.text
	}
	return a.Name.Value + op + value
}

// scan looks through node for command and process substitutions: each
// forces an ask on sc.owner, and the commands inside are parts of their own.
func (w *walker) scan(node syntax.Node, sc scope) {
	syntax.Walk(node, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst:
			w.force(sc.owner, sc, n, reasonCmdSubst)
			w.stmts(n.Stmts, scope{src: sc.src, off: sc.off, depth: sc.depth})
			return false
		case *syntax.ProcSubst:
			w.force(sc.owner, sc, n, reasonProcSubst)
			w.stmts(n.Stmts, scope{src: sc.src, off: sc.off, depth: sc.depth})
			return false
		}
		return true
	})
}

// Reasons a command forces an ask.
const (
	reasonCmdSubst  = "command substitution"
	reasonProcSubst = "process substitution"
	reasonEval      = "eval runs a string as a command"
	reasonTooDeep   = "commands nested too deeply to read"
	stdinPipe       = "pipe"
	stdinHeredoc    = "heredoc"
)

// stdinOf says what feeds a statement's standard input as a script: a
// heredoc or here-string of its own, an input redirect (a file, not a
// script from the text), or what fed the statement around it.
func stdinOf(s *syntax.Stmt, outer string) string {
	in := outer
	for _, r := range s.Redirs {
		if r.N != nil && r.N.Value != "0" {
			continue
		}
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
			in = stdinHeredoc
		case syntax.RdrIn, syntax.RdrInOut, syntax.DplIn:
			in = ""
		}
	}
	return in
}
