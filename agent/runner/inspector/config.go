package inspector

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/steer-tui/steer/agent/runner"
)

// Config is the configuration inspector: /config, rpc `inspect
// {what:"config"}`, `steer inspect config` (the same as `steer config`).
var Config = New(Def[runner.ConfigView]{
	Name:    "config",
	Summary: "the configuration: each value and the file it came from",
	Usage:   "the merged configuration, each value with the file it came from",
	Help: `the config files found (global, project, --config; lowest first;
an untrusted project file is listed but not applied), then every merged
value with the file whose value is in effect and the files it overrides;
secrets show as (set) or (unset). --json prints {layers, settings, trust},
as 'steer config --json' prints layers and settings.`,
	Read: func(_ context.Context, src Source, _ Query) (runner.ConfigView, error) {
		return src.ConfigView(), nil
	},
	ReadSaved: func(_ context.Context, s Saved) (runner.ConfigView, error) {
		if s.Config == nil {
			return runner.ConfigView{}, errors.New("the configuration was not read")
		}
		return *s.Config, nil
	},
	Print: printConfig,
	Table: func(v runner.ConfigView, _ Frame) Table { return configTable(v) },
})

func printConfig(w io.Writer, v runner.ConfigView, _ time.Time) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "LAYER\tFILE\tSTATE")
	for _, l := range v.Layers {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", l.Kind, l.Path, layerState(l.Applied, l.Note))
	}
	if len(v.Settings) > 0 {
		fmt.Fprintln(tw, "\nSETTING\tVALUE\tFROM")
	}
	for _, s := range v.Settings {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", s.Path, oneLine(s.ValueText(), 80), from(s.Source, s.Sources))
	}
	tw.Flush()
}

func layerState(applied bool, note string) string {
	if applied {
		return "applied"
	}
	return note
}

// from names the file a value came from and those it overrides.
func from(source string, sources []string) string {
	if len(sources) < 2 {
		return source
	}
	return source + " (over " + strings.Join(sources[:len(sources)-1], ", ") + ")"
}

// configTable is the layers, then every value: a row's details are its
// whole value and every file that sets it.
func configTable(v runner.ConfigView) Table {
	t := Table{Title: "Configuration",
		Columns: []Column{{Title: "SETTING", Max: 40}, {Title: "VALUE", Max: 40}, {Title: "FROM", Max: 60, Drop: 1}},
		Empty:   "no config file: the environment alone configures steer"}
	waiting := 0
	for _, l := range v.Layers {
		row := Row{Key: "layer:" + l.Path, Cells: []Cell{text("(" + l.Kind + " file)"), {Text: layerState(l.Applied, "not applied"), Tone: ToneOK}, text(l.Path)},
			Detail: []string{l.Kind + " layer " + l.Path + ", setting: " + strings.Join(l.Keys, ", ")}}
		if !l.Applied {
			waiting++
			row.Cells[1].Tone = ToneWarn
			row.Detail = append(row.Detail, "the project config waits for trust: "+l.Note)
		}
		t.Rows = append(t.Rows, row)
	}
	for _, s := range v.Settings {
		row := Row{Key: s.Path, Cells: []Cell{text(s.Path), text(oneLine(s.ValueText(), 80)), text(s.Source)},
			Detail: []string{s.Path + " = " + s.ValueText(), "from " + from(s.Source, s.Sources)}}
		t.Rows = append(t.Rows, row)
	}
	t.Summary = fmt.Sprintf("%s, %s", plural(len(v.Layers), "file"), plural(len(v.Settings), "value"))
	if waiting > 0 {
		t.Summary += "; the project config waits for trust"
	}
	return t
}
