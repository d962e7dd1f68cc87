package runner

import "context"

// everySession is the host's methods over all its sessions at once (a
// quit, a signal, the wait before closing); runtimes lists them, as a copy
// taken under the host's lock. It calls nothing else of the host.
type everySession struct {
	runtimes func() []*Runtime
}

// AbortWith aborts every run of the host for reason (a quit, a signal).
func (e *everySession) AbortWith(reason string) {
	for _, rt := range e.runtimes() {
		rt.AbortWith(reason)
	}
}

// WaitForIdle waits until no session of the host runs and everything they
// produced has been saved.
func (e *everySession) WaitForIdle(ctx context.Context) error {
	for _, rt := range e.runtimes() {
		if err := rt.WaitForIdle(ctx); err != nil {
			return err
		}
	}
	return nil
}
