package runner

// Library reads the user's skills and prompt templates for the current
// session's workspace (library.go); templates named like one of reserved
// are listed as skipped. It does IO.
func (h *Host) Library(reserved []string) Library { return h.Current().Library(reserved) }
