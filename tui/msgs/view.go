package msgs

// ScrollMsg asks the transcript to scroll: by Lines, by Pages (a page is the
// visible height), or to the end when ToEnd is set. Negative values go up.
type ScrollMsg struct {
	Lines, Pages int
	ToEnd        bool
}

// ToggleToolsMsg asks to expand every tool block, or collapse them all when
// all are expanded.
type ToggleToolsMsg struct{}

// ToggleThinkingMsg asks to show or hide every thinking block.
type ToggleThinkingMsg struct{}

// ToggleTodoMsg asks to fold the pinned todo list to one line, or unfold it.
type ToggleTodoMsg struct{}
