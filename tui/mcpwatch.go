package tui

import (
	"context"
	"strconv"
	"sync"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent/runner"
)

// mcpWatch is how the MCP servers reach the program, beside the bridge:
// their changes (SubscribeMCP, whose callback only signals) become one
// mcpChangedMsg each time its goroutine wakes, however many came; and a
// server's request for input (the elicitor) becomes an elicitationMsg whose
// answer the elicitor waits for, until the request's context ends or the
// program stops.
type mcpWatch struct {
	rt   MCPServers
	send func(tea.Msg)

	wake, stopCh, done chan struct{}
	unsubscribe        func()

	mu   sync.Mutex
	next int // elicitations asked: their ids
}

// startMCPWatch subscribes to rt's MCP servers and answers their
// elicitations through the program (send is its Send). Call stop before
// the program ends.
func startMCPWatch(rt MCPServers, send func(tea.Msg)) *mcpWatch {
	w := &mcpWatch{rt: rt, send: send, wake: make(chan struct{}, 1), stopCh: make(chan struct{}), done: make(chan struct{})}
	w.unsubscribe = rt.SubscribeMCP(func() { signal(w.wake) })
	rt.SetMCPElicitor(w.elicit)
	go w.pump()
	return w
}

func (w *mcpWatch) pump() {
	defer close(w.done)
	for {
		select {
		case <-w.wake:
			w.send(mcpChangedMsg{})
		case <-w.stopCh:
			return
		}
	}
}

// stop ends the watch; the servers' requests for input are declined from
// then on, and one waiting is cancelled.
func (w *mcpWatch) stop() {
	w.rt.SetMCPElicitor(nil)
	w.unsubscribe()
	close(w.stopCh)
	<-w.done
}

// elicit asks the user through the program and waits for the answer, on
// the server's request goroutine. A request whose context ends closes its
// form.
func (w *mcpWatch) elicit(ctx context.Context, e runner.MCPElicitation) (runner.MCPElicitAnswer, error) {
	w.mu.Lock()
	w.next++
	id := elicitTagPrefix + strconv.Itoa(w.next)
	w.mu.Unlock()
	reply := make(chan runner.MCPElicitAnswer, 1)
	select {
	case <-w.stopCh:
		return runner.MCPElicitAnswer{Action: runner.MCPElicitCancel}, nil
	default:
	}
	w.send(elicitationMsg{id: id, req: e, reply: reply})
	select {
	case a := <-reply:
		return a, nil
	case <-ctx.Done():
		w.send(elicitationEndedMsg{id: id})
		return runner.MCPElicitAnswer{}, ctx.Err()
	case <-w.stopCh:
		return runner.MCPElicitAnswer{Action: runner.MCPElicitCancel}, nil
	}
}
