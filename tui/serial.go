package tui

import (
	"sync"

	tea "github.com/charmbracelet/bubbletea"
)

// serial runs runtime calls in the order Update issued them. Bubble Tea runs
// every Cmd on its own goroutine in no particular order, but two Enters in a
// row must queue two steering items in that order: each call takes a ticket
// in Update and waits for its turn on its Cmd goroutine.
type serial struct {
	mu      sync.Mutex
	turn    *sync.Cond
	issued  uint64
	serving uint64
}

func newSerial() *serial {
	s := &serial{}
	s.turn = sync.NewCond(&s.mu)
	return s
}

// cmd wraps fn into a Cmd that runs after every call issued before it.
func (s *serial) cmd(fn func() tea.Msg) tea.Cmd {
	s.mu.Lock()
	ticket := s.issued
	s.issued++
	s.mu.Unlock()
	return func() tea.Msg {
		s.mu.Lock()
		for s.serving != ticket {
			s.turn.Wait()
		}
		s.mu.Unlock()
		defer func() {
			s.mu.Lock()
			s.serving++
			s.turn.Broadcast()
			s.mu.Unlock()
		}()
		return fn()
	}
}
