package sandbox

import "fmt"

// notCovered names the writes Landlock does not confine, so that no line
// claims more than the kernel does.
const notCovered = "not confined by Landlock: chmod, chown, timestamps and extended attributes"

// Describe is what /permissions shows about p on this machine: one line for
// writes and one for the network, saying which protection is active and by
// what means, or that there is none and why. It never claims a protection
// the kernel cannot give: a policy it cannot enforce is described as
// refusing every command, which is what Command does.
func (s Support) Describe(p Policy) []string {
	if !p.Enabled() {
		return []string{"no sandbox: the sandbox is off"}
	}
	var lines []string
	refused := false
	switch problem := s.writesProblem(); {
	case !p.ConfinesWrites():
		lines = append(lines, "writes: not confined (sandbox mode off)")
	case problem != "":
		lines = append(lines, "no sandbox: "+problem)
		refused = true
	default:
		lines = append(lines, fmt.Sprintf("writes: %s (Landlock ABI %d)", writableSummary(p), s.LandlockABI), notCovered)
	}
	switch {
	case p.Network == Allow:
		lines = append(lines, "network: allowed")
	case s.NetNamespace:
		lines = append(lines, "network: denied (network namespace)")
	case s.LandlockABI >= tcpABI:
		lines = append(lines, fmt.Sprintf("network: TCP connect and bind denied (Landlock ABI %d); UDP and Multipath TCP are not", s.LandlockABI))
	default:
		lines = append(lines, "network: not denied: "+s.networkProblem())
		refused = true
	}
	if refused {
		lines = append(lines, fmt.Sprintf("bash refuses every command: this kernel cannot enforce sandbox mode %s, network %s", p.Mode, p.Network))
	}
	return lines
}

// writableSummary names what a confined command may write.
func writableSummary(p Policy) string {
	s := "temp"
	if p.Mode == WorkspaceWrite {
		s = "workspace + temp"
	}
	switch n := len(p.Writable); n {
	case 0:
		if p.Mode == ReadOnly {
			s += " only"
		}
	case 1:
		s += " + 1 configured path"
	default:
		s += fmt.Sprintf(" + %d configured paths", n)
	}
	return s
}
