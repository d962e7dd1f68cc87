package export

import "fmt"

// RewindLine words a rewind entry in one line, for every format and for
// `steer sessions show`: what went back (scope), to before which entry, and
// how many files a code rewind restored.
func RewindLine(scope, target string, files int) string {
	restored := ""
	if scope != "conversation" {
		restored = fmt.Sprintf(" (%d %s restored)", files, plural(files, "file", "files"))
	}
	switch scope {
	case "code":
		return fmt.Sprintf("Rewound the code to before entry %s%s", target, restored)
	case "conversation":
		return fmt.Sprintf("Rewound the conversation to before entry %s", target)
	case "redo":
		return fmt.Sprintf("Redid what the rewind %s undid%s", target, restored)
	}
	return fmt.Sprintf("Rewound the code and the conversation to before entry %s%s", target, restored)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
