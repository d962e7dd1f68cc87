package tui

import (
	"fmt"

	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/tui/input"
	"github.com/steer-tui/steer/tui/msgs"
	"github.com/steer-tui/steer/tui/status"
	"github.com/steer-tui/steer/tui/treeview"
)

// Update routes one message: each case names the handler or the component
// that owns it. refresh then settles the layout, the key states and the help
// line.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m, cmd := m.route(msg)
	m.refresh()
	if tick := m.guardTick(); tick != nil {
		cmd = tea.Batch(cmd, tick)
	}
	return m, cmd
}

func (m Model) route(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		return m, nil
	case tea.KeyMsg:
		return m.handleKey(msg)
	case tea.MouseMsg:
		return m.handleMouse(msg)
	case msgs.RunEventMsg:
		return m.handleRunEvents(msg)
	case spinner.TickMsg:
		return m.handleTick(msg)
	case callDoneMsg:
		return m.handleCallDone(msg)
	case msgs.SteerMsg:
		return m.handleSend(msg.Text, msg.Attach, agent.QueueSteer)
	case msgs.FollowUpMsg:
		return m.handleSend(msg.Text, msg.Attach, agent.QueueFollowUp)
	case msgs.ShellMsg:
		return m.handleShell(msg)
	case msgs.RunCommandMsg:
		return m.handleCommand(msg)
	case msgs.AbortRunMsg:
		return m.handleAbort()
	case msgs.TakeBackMsg:
		return m.handleTakeBack(msg.ID)
	case msgs.DropQueuedMsg:
		return m.handleDrop(msg.ID)
	case msgs.ItemsTakenBackMsg:
		return m.handleTakenBack(msg)
	case msgs.QueuedDroppedMsg:
		return m.hint("dropped: " + oneLine(msg.Item.Text, 40))
	case msgs.NewSessionMsg:
		return m.handleNewSession()
	case msgs.OpenSessionsMsg:
		return m.handleOpenSessions()
	case msgs.SessionsListedMsg:
		return m.handleSessionsListed(msg)
	case msgs.ResumeSessionMsg:
		return m.handleResume(msg)
	case msgs.SessionLoadedMsg:
		return m.handleLoaded(msg)
	case msgs.EarlierLoadedMsg:
		return m.handleEarlierLoaded(msg)
	case input.LoadHistoryMsg:
		return m.loadHistory(), nil
	case input.SearchHistoryMsg:
		return m.searchHistory(msg), nil
	case input.HistoryLoadedMsg, input.HistorySavedMsg, input.HistoryFoundMsg:
		return m.updateInput(msg)
	case switchedMsg:
		return m.handleSwitched(msg, false)
	case msgs.OpenModelsMsg:
		return m.handleOpenModels()
	case modelsListedMsg:
		return m.handleModelsListed(msg)
	case msgs.SetModelMsg:
		return m.handleSetModel(msg.Ref)
	case msgs.ModelChangedMsg:
		return m.handleModelChanged(msg)
	case msgs.OpenThinkingMsg:
		return m.handleOpenThinking()
	case msgs.SetThinkingMsg:
		return m.handleSetThinking(msg.Level)
	case msgs.ThinkingChangedMsg:
		return m.handleThinkingChanged(msg)
	case msgs.OpenHelpMsg:
		return m.handleOpenHelp()
	case msgs.CloseDialogMsg:
		return m.closeDialog(), nil
	case msgs.OpenInspectorMsg:
		return m.handleOpenInspector(msg.Which)
	case inspectorLoadedMsg:
		return m.handleInspectorLoaded(msg)
	case inspectTickMsg:
		return m.handleInspectTick(msg)
	case msgs.AskClearMsg:
		return m.handleAskClear(msg)
	case msgs.ClearMsg:
		return m.handleClear(msg)
	case msgs.PreferProfileMsg:
		return m.handleChooseProfile(msg.Profile, false)
	case msgs.LockProfileMsg:
		return m.handleChooseProfile(msg.Profile, true)
	case choseMsg:
		return m.handleChose(msg)
	case clearedMsg:
		return m.handleCleared(msg)
	case mcpMsg, msgs.RestartMCPMsg, msgs.LoginMCPMsg:
		return m.routeMCP(msg)
	case rewindMsg:
		return m.routeRewind(msg)
	case themeMsg:
		return m.routeTheme(msg)
	case trustMsg:
		return m.routeTrust(msg)
	case planMsg:
		return m.routePlan(msg)
	case libraryMsg:
		return m.routeLibrary(msg)
	case msgs.CommandListOpenedMsg:
		return m.loadLibrary(false), nil
	case msgs.HealthChangedMsg:
		return m.handleHealth(msg)
	case healthTickMsg:
		return m.handleHealthTick(msg)
	case storeTickMsg:
		return m.handleStoreTick()
	case storeCheckedMsg:
		return m.handleStoreChecked(msg)
	case msgs.NoticeArrivedMsg:
		return m.handleNotice(msg)
	case guardTickMsg: // refresh ends the pause
		return m, nil
	case answerApprovalMsg:
		return m.handleAnswerApproval(msg)
	case addRuleMsg:
		return m.handleAddRule(msg)
	case saveRuleMsg:
		return m.handleSaveRule(msg)
	case savedRuleMsg:
		return m.handleSavedRule(msg)
	case budgetMsg:
		return m.handleBudget(msg)
	case promptsListedMsg:
		return m.handlePromptsListed(msg)
	case runPromptMsg:
		return m.handleRunPrompt(msg)
	case sessionQueryMsg:
		return m.handleSessionQueryChanged()
	case sessionScopeMsg:
		return m.handleSessionScope()
	case sessionsFoundMsg:
		return m.handleSessionsFound(msg)
	case nameSessionMsg:
		return m.handleNameSession(msg)
	case openTreeMsg:
		return m.loadTree(false)
	case openForkMsg:
		return m.loadTree(true)
	case treeLoadedMsg:
		return m.handleTreeLoaded(msg)
	case treeview.NavigateMsg:
		return m.handleTreeNavigate(msg)
	case treeview.LabelMsg:
		return m.handleTreeLabel(msg)
	case treeview.CloseMsg:
		m.treeOpen = false
		return m, nil
	case navigateMsg:
		return m.handleNavigate(msg)
	case navigatedMsg:
		return m.hint(msg.note())
	case labelledMsg:
		return m.hint(msg.note())
	case forkMsg:
		return m.handleFork(msg)
	case forkedMsg:
		return m.handleForked(msg)
	case cloneMsg:
		return m.handleClone()
	case clonedMsg:
		return m.updateChat(msgs.NoteMsg{Text: "cloned into a new session"})
	case askDeleteSessionMsg:
		return m.handleAskDeleteSession(msg)
	case deleteSessionMsg:
		return m.handleDeleteSession(msg)
	case sessionDeletedMsg:
		return m.handleSessionDeleted(msg)
	case sessionNamedMsg:
		return m.updateChat(msgs.NoteMsg{Text: msg.note()})
	case exportSessionMsg:
		return m.handleExportSession(msg)
	case sessionExportedMsg:
		return m.updateChat(msgs.NoteMsg{Text: msg.note()})
	case compactMsg:
		return m.handleCompact(msg)
	case compactDoneMsg:
		return m.handleCompactDone(msg)
	case msgs.QuitMsg:
		return m.handleQuit()
	case quitReadyMsg, quitDeadlineMsg:
		return m, tea.Quit
	case msgs.ToggleMouseMsg:
		return m.handleToggleMouse()
	case input.ExternalEditMsg:
		return m.updateInput(msg)
	case msgs.RunProcessMsg: // headless; Run's framed model connects the terminal
		return m, tea.ExecProcess(msg.Cmd, msg.Done)
	case tea.FocusMsg, tea.BlurMsg:
		return m.handleFocusReport(msg), nil
	case copyLastMsg:
		return m.handleCopyLast()
	case msgs.CopyMsg:
		return m.handleCopy(msg)
	case copiedMsg:
		return m.hint(msg.note())
	case msgs.EmitSequenceMsg: // headless; Run's framed model writes it
		return m, nil
	case msgs.FocusEditorMsg:
		return m.handleFocusEditor(msg.Runes)
	case msgs.HintMsg, msgs.ErrorMsg, msgs.ContextMeasuredMsg, status.HintExpiredMsg:
		return m.updateStatus(msg)
	case msgs.NoteMsg, msgs.ScrollMsg, msgs.ToggleToolsMsg, msgs.ToggleThinkingMsg:
		return m.updateChat(msg)
	case fmt.Stringer: // last: many messages print themselves
		if isShiftEnter(msg) {
			return m.handleKey(tea.KeyMsg{Type: tea.KeyCtrlJ})
		}
	}
	return m.updateFocused(msg)
}

// isShiftEnter recognises Shift+Enter from terminals that report it with
// the kitty or xterm modifyOtherKeys encoding; Bubble Tea v1 delivers those
// as unknown CSI sequences, which only print themselves.
func isShiftEnter(msg fmt.Stringer) bool {
	switch msg.String() {
	case "?CSI[49 51 59 50 117]?", // CSI 13;2u
		"?CSI[50 55 59 50 59 49 51 126]?": // CSI 27;2;13~
		return true
	}
	return false
}

// handleCallDone handles the reply to a runtime call, unless the user has
// since made a newer request of the same topic: then the reply is stale.
func (m Model) handleCallDone(r callDoneMsg) (Model, tea.Cmd) {
	m.answered[r.topic] = max(m.answered[r.topic], r.id)
	switch {
	case r.msg == nil:
		return m, nil
	case r.topic == topicSession && r.id != m.latest[topicSession]:
		return m.handleStaleSession(r.msg)
	case r.topic != topicNone && r.id != m.latest[r.topic]:
		return m, nil
	}
	return m.route(r.msg)
}

// settled reports whether the latest request of every topic, and the latest
// call of none, has been answered: what the screen shows is what the
// runtime said last. The reads travel on a lane of their own (calls.go), so
// a read answered says nothing of the ordered calls before it.
func (m Model) settled() bool {
	if m.answered[topicNone] < m.calls.latestOrdered() {
		return false
	}
	for t := range m.latest {
		if topic(t) != topicNone && m.answered[t] < m.latest[t] {
			return false
		}
	}
	return true
}

func (m Model) updateStatus(msg tea.Msg) (Model, tea.Cmd) {
	var cmd tea.Cmd
	m.status, cmd = m.status.Update(msg)
	return m, cmd
}

func (m Model) updateChat(msg tea.Msg) (Model, tea.Cmd) {
	var cmd tea.Cmd
	m.chat, cmd = m.chat.Update(msg)
	return m, cmd
}

// updateFocused hands anything else (cursor blinks, pastes) to the dialog,
// the inspector or the focused component.
func (m Model) updateFocused(msg tea.Msg) (Model, tea.Cmd) {
	var cmd tea.Cmd
	switch {
	case len(m.dialogs) > 0:
		top := len(m.dialogs) - 1
		m.dialogs[top], cmd = m.dialogs[top].Update(msg)
	case m.inspecting:
		m.inspector, cmd = m.inspector.Update(msg)
	case m.focus == focusInput:
		m.input, cmd = m.input.Update(msg)
	}
	return m, cmd
}
