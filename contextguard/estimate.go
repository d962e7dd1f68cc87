package contextguard

import (
	"encoding/json"
	"math"
	"sync"

	"github.com/steer-tui/steer/agent"
)

// The token arithmetic of SPEC §6.2 (OpenClaw's). Sizes are bytes, which
// errs on the safe side for non-ASCII text: a rune of n bytes counts n.
const (
	textBytesPerToken       = 4 // user and assistant text, thinking, the system prompt
	toolResultBytesPerToken = 2 // tool output tokenises densely (paths, numbers, symbols)
	jsonBytesPerToken       = 3 // tool-call arguments and tool schemas
	messageOverheadTokens   = 12
	blockOverheadTokens     = 6
	imageTokens             = 2_000
	// safetyMargin multiplies every estimate: the arithmetic above
	// under-counts more often than it over-counts.
	safetyMargin = 1.2
)

// tokensToBytes is how many bytes of a kind measure at most tokens tokens,
// safety margin included.
func tokensToBytes(tokens, bytesPerToken int) int {
	return int(float64(tokens*bytesPerToken) / safetyMargin)
}

// EstimateMessage is m's size in tokens, safety margin included.
func EstimateMessage(m agent.Message) int {
	raw := float64(messageOverheadTokens)
	perToken := float64(textBytesPerToken)
	if m.Role == agent.RoleToolResult {
		perToken = toolResultBytesPerToken
	}
	for _, c := range m.Content {
		raw += blockOverheadTokens
		switch c.Type {
		case agent.ContentText:
			raw += float64(len(c.Text)) / perToken
		case agent.ContentThinking:
			raw += float64(len(c.Thinking)) / textBytesPerToken
		case agent.ContentToolCall:
			raw += float64(len(c.ID)+len(c.Name)+jsonLen(c.Arguments)) / jsonBytesPerToken
		case agent.ContentImage:
			raw += imageTokens
		}
	}
	return withMargin(raw)
}

// EstimateContext is the size of a whole request in tokens: system prompt,
// tool schemas and messages. It measures every message; Estimator.Context
// remembers them.
func EstimateContext(llm agent.LLMContext) int {
	return (*Estimator)(nil).Context(llm)
}

// estimateFixed measures the parts of a request that are not messages.
func estimateFixed(llm agent.LLMContext) int {
	raw := 0.0
	if llm.SystemPrompt != "" {
		raw += messageOverheadTokens + float64(len(llm.SystemPrompt))/textBytesPerToken
	}
	for _, t := range llm.Tools {
		raw += blockOverheadTokens + float64(len(t.Name)+len(t.Description))/textBytesPerToken +
			float64(len(t.Parameters))/jsonBytesPerToken
	}
	return withMargin(raw)
}

func withMargin(raw float64) int { return int(math.Ceil(raw * safetyMargin)) }

// jsonLen is the length of args as JSON, as a provider would send them.
func jsonLen(args map[string]any) int {
	if len(args) == 0 {
		return len("{}")
	}
	b, err := json.Marshal(args)
	if err != nil {
		return 0
	}
	return len(b)
}

// Estimator measures messages like EstimateMessage and remembers each
// message's size, so that a long transcript is not measured again on every
// request. Its zero value is ready; a nil *Estimator measures without
// remembering. It is safe for concurrent use.
//
// A message is recognised by the address of its first content block, with
// its role, timestamp, block count and the summed length of its blocks'
// text, thinking, names, ids and data. Copies of a message share that
// address (messages are values whose content slice is shared), so the
// transcript's messages hit the cache whatever slice holds them, and the key
// costs a walk over the blocks, not over their bytes. An estimate depends
// only on those lengths, which the key holds, and on tool-call arguments,
// which the agent never changes once a block is published (a changed
// message gets a new content slice, Message.Clone, and so a new key).
// Remembered entries keep their content alive until two generations of
// maxCachedMessages have passed.
type Estimator struct {
	mu   sync.Mutex
	cur  map[messageKey]int
	prev map[messageKey]int
}

// maxCachedMessages is the size of one cache generation: a transcript of this
// many messages is measured once; a longer one is partly measured again.
const maxCachedMessages = 1 << 14

// NewEstimator returns an empty Estimator.
func NewEstimator() *Estimator { return &Estimator{} }

type messageKey struct {
	first  *agent.Content
	blocks int
	bytes  int
	at     int64
	role   agent.Role
}

func keyOf(m agent.Message) messageKey {
	k := messageKey{first: &m.Content[0], blocks: len(m.Content), at: m.Timestamp.UnixNano(), role: m.Role}
	for i := range m.Content {
		c := &m.Content[i]
		k.bytes += len(c.Text) + len(c.Thinking) + len(c.Name) + len(c.ID) + len(c.Data)
	}
	return k
}

// Message is m's size in tokens.
func (e *Estimator) Message(m agent.Message) int {
	if e == nil || len(m.Content) == 0 {
		return EstimateMessage(m)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.lookup(m)
}

// Messages is the summed size of ms in tokens.
func (e *Estimator) Messages(ms []agent.Message) int {
	total := 0
	if e == nil {
		for _, m := range ms {
			total += EstimateMessage(m)
		}
		return total
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, m := range ms {
		total += e.lookup(m)
	}
	return total
}

// measure sets sizes[i] to the size of ms[i].
func (e *Estimator) measure(ms []agent.Message, sizes []int) {
	if e == nil {
		for i, m := range ms {
			sizes[i] = EstimateMessage(m)
		}
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for i, m := range ms {
		sizes[i] = e.lookup(m)
	}
}

// Context is the size of a whole request in tokens.
func (e *Estimator) Context(llm agent.LLMContext) int {
	return estimateFixed(llm) + e.Messages(llm.Messages)
}

// lookup returns m's remembered size or measures and remembers it; e.mu is held.
func (e *Estimator) lookup(m agent.Message) int {
	if len(m.Content) == 0 {
		return EstimateMessage(m)
	}
	k := keyOf(m)
	if n, ok := e.cur[k]; ok {
		return n
	}
	n, ok := e.prev[k]
	if !ok {
		n = EstimateMessage(m)
	}
	if len(e.cur) >= maxCachedMessages || e.cur == nil {
		e.prev, e.cur = e.cur, make(map[messageKey]int, 256)
	}
	e.cur[k] = n
	return n
}
