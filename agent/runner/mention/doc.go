// Package mention finds the workspace's files for the editor's @-mentions
// and reads what a message attaches: the files and directories it mentions
// and the images pasted beside it.
//
// # The index
//
// An Index walks the workspace once, in the background, as the tools see
// it (agent/tools.Walk: .gitignore respected, links not followed), and
// answers fuzzy queries over what it has found so far: a query never waits
// for the walk, and the walk never waits for a query. Queries that extend
// the previous one (typing one more letter) search only its matches and the
// entries found since, which keeps a keystroke cheap on a large tree.
//
// # Attachments
//
// Expand reads what a message's text mentions ("what is in @README.md")
// and the paths attached beside it into content blocks the model sees:
// a text file with its path and at most MaxTextBytes of it (a note says
// when it was cut), an image as an image block, a directory as a listing.
// Each block carries its agent.Attachment, which front ends show as a chip.
// The runner calls it, so every front end attaches alike.
package mention
