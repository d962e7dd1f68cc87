package jsonscan

import (
	"bytes"
	"unicode/utf16"
	"unicode/utf8"
)

func hasEscape(s []byte) bool { return bytes.IndexByte(s, '\\') >= 0 }

// unquote decodes the JSON string raw (quotes included) as encoding/json
// does: escapes, surrogate pairs, and U+FFFD for invalid UTF-8 and lone
// surrogates.
func unquote(raw []byte) string {
	s := raw[1 : len(raw)-1]
	if !hasEscape(s) && utf8.Valid(s) {
		return string(s)
	}
	b := make([]byte, 0, len(s)+utf8.UTFMax)
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == '\\' && s[i+1] == 'u':
			r := hex4(s[i+2:])
			i += 6
			if utf16.IsSurrogate(r) {
				if i+6 <= len(s) && s[i] == '\\' && s[i+1] == 'u' {
					if pair := utf16.DecodeRune(r, hex4(s[i+2:])); pair != utf8.RuneError {
						b = utf8.AppendRune(b, pair)
						i += 6
						continue
					}
				}
				r = utf8.RuneError
			}
			b = utf8.AppendRune(b, r)
		case c == '\\':
			b = append(b, unescape(s[i+1]))
			i += 2
		case c < utf8.RuneSelf:
			b = append(b, c)
			i++
		default:
			r, size := utf8.DecodeRune(s[i:])
			b = utf8.AppendRune(b, r)
			i += size
		}
	}
	return string(b)
}

// unescape is the byte a one-letter escape stands for.
func unescape(c byte) byte {
	switch c {
	case 'b':
		return '\b'
	case 'f':
		return '\f'
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	}
	return c // '"', '\\' and '/'
}

// hex4 is the code unit of the four hex digits at the start of s; s was
// checked, so they are there.
func hex4(s []byte) rune {
	var r rune
	for _, c := range s[:4] {
		switch {
		case c <= '9':
			c -= '0'
		case c <= 'F':
			c -= 'A' - 10
		default:
			c -= 'a' - 10
		}
		r = r<<4 | rune(c)
	}
	return r
}
