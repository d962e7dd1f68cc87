package contextguard

import (
	"reflect"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
)

func TestDedupeUserMessages(t *testing.T) {
	const long = "please run the deployment status check for production"
	sec := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Second) }
	withImage := userAt(long, sec(1))
	withImage.Content = append(withImage.Content, image())
	cases := []struct {
		name string
		msgs []agent.Message
		keep []int // indexes of the kept messages
	}{
		{"a resend is dropped", []agent.Message{userAt(long, sec(0)), userAt(long, sec(1))}, []int{0}},
		{"whitespace folded", []agent.Message{userAt(long, sec(0)), userAt("  please   run the deployment\nstatus check for production ", sec(5))}, []int{0}},
		{"case folded", []agent.Message{userAt(long, sec(0)), userAt("PLEASE run the deployment status check for PRODUCTION", sec(5))}, []int{0}},
		{"NFC: composed and decomposed é are the same", []agent.Message{
			userAt("vérifie le déploiement de production maintenant", sec(0)),
			userAt("ve\u0301rifie le de\u0301ploiement de production maintenant", sec(3))}, []int{0}},
		{"exactly 60 s apart is within the window", []agent.Message{userAt(long, sec(0)), userAt(long, sec(60))}, []int{0}},
		{"61 s apart is asked again", []agent.Message{userAt(long, sec(0)), userAt(long, sec(61))}, []int{0, 1}},
		{"the window slides from the last copy", []agent.Message{userAt(long, sec(0)), userAt(long, sec(50)), userAt(long, sec(100))}, []int{0}},
		{"short messages repeat", []agent.Message{userAt("continue please", sec(0)), userAt("continue please", sec(1))}, []int{0, 1}},
		{"24 characters is long enough", []agent.Message{userAt("abcdefghijklmnopqrstuvwx", sec(0)), userAt("abcdefghijklmnopqrstuvwx", sec(1))}, []int{0}},
		{"23 characters is too short", []agent.Message{userAt("abcdefghijklmnopqrstuvw", sec(0)), userAt("abcdefghijklmnopqrstuvw", sec(1))}, []int{0, 1}},
		{"characters, not bytes", []agent.Message{userAt("日本語のテキストを確認してください", sec(0)), userAt("日本語のテキストを確認してください", sec(1))}, []int{0, 1}}, // 17 runes, 51 bytes
		{"an image makes a message unique", []agent.Message{userAt(long, sec(0)), withImage}, []int{0, 1}},
		{"no timestamp, no comparison", []agent.Message{userAt(long, time.Time{}), userAt(long, time.Time{})}, []int{0, 1}},
		{"other roles untouched", []agent.Message{assistantText(long), assistantText(long), userAt(long, sec(0)), toolResultOf(long), userAt(long, sec(2))}, []int{0, 1, 2, 3}},
		{"different texts", []agent.Message{userAt(long, sec(0)), userAt(long+" again", sec(1))}, []int{0, 1}},
		{"summaries are kept", []agent.Message{SummaryMessage(long, sec(0)), SummaryMessage(long, sec(1))}, []int{0, 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			stored := deepCopy(c.msgs)
			kept, dropped := DedupeUserMessages(c.msgs)
			if !reflect.DeepEqual(c.msgs, stored) {
				t.Fatal("the input was modified")
			}
			var want []agent.Message
			for _, i := range c.keep {
				want = append(want, c.msgs[i])
			}
			if !reflect.DeepEqual(kept, want) || dropped != len(c.msgs)-len(c.keep) {
				t.Fatalf("kept %d messages (dropped %d), want indexes %v", len(kept), dropped, c.keep)
			}
		})
	}
}
