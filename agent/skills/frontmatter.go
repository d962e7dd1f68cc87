package skills

import (
	"bytes"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v4"
)

// splitFrontMatter splits a Markdown file into its YAML front matter (the
// lines between a first line "---" and the next "---") and its body. A file
// that does not start with "---" has no front matter and is all body; one
// whose front matter is not closed is an error.
func splitFrontMatter(data []byte) (front []byte, body string, err error) {
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	first, rest, _ := strings.Cut(text, "\n")
	if strings.TrimRight(first, " \t") != "---" {
		return nil, text, nil
	}
	for off := 0; off <= len(rest); {
		line, next, more := strings.Cut(rest[off:], "\n")
		if strings.TrimRight(line, " \t") == "---" {
			return []byte(rest[:off]), next, nil
		}
		if !more {
			break
		}
		off += len(line) + 1
	}
	return nil, "", fmt.Errorf("the front matter opened by --- on line 1 is not closed by a line ---")
}

// parseFrontMatter decodes front into v. Keys v does not name are
// accepted: the formats define more (license, allowed-tools, metadata…)
// than steer uses.
func parseFrontMatter(front []byte, v any) error {
	if len(bytes.TrimSpace(front)) == 0 {
		return nil
	}
	// The blank line stands for the opening ---, so that the lines YAML's
	// errors name are the file's.
	if err := yaml.Unmarshal(append([]byte("\n"), front...), v); err != nil {
		return fmt.Errorf("bad front matter: %s", strings.TrimPrefix(err.Error(), "yaml: "))
	}
	return nil
}
