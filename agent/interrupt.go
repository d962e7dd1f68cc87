package agent

// InterruptedMessage is the errorMessage of the marker that closes a run an
// interrupt input aborted (QueueInterrupt).
const InterruptedMessage = "interrupted by a new message"

// interruptLocked aborts the active run for it, an interrupt just queued in
// the steering queue: when the aborted run has ended, it starts the next
// run (takeInterruptLocked). The newest interrupt wins; an older one stays
// queued as steering. The run keeps an earlier abort's reason.
func (a *Agent) interruptLocked(it QueueItem) {
	a.interruptID = it.ID
	a.cancel(&AbortError{Reason: InterruptedMessage})
}

// takeInterruptLocked takes the interrupt that aborted the run just ended
// out of the steering queue, to start the next run; none when it was taken
// back (Dequeue, ClearQueues) meanwhile.
func (a *Agent) takeInterruptLocked() (QueueItem, bool) {
	id := a.interruptID
	a.interruptID = ""
	if id == "" {
		return QueueItem{}, false
	}
	it, ok := a.steering.remove(id)
	if ok {
		a.drained[it.ID] = it // leaves the queue display as its message starts
	}
	return it, ok
}
