package spec

import "surge/content"

// copyFraction reads a client's copy: the fraction of each answer that
// repeats its prompt, in [0, 1]. Above 0, a client that names no prompt
// style or content mix gets the copy style, whose prompts ask for the
// passage word for word.
func (d *decoder) copyFraction(o *object, c *Client) {
	if !field(o, "copy", d.number, &c.Copy) {
		return
	}
	d.check(o, "copy", !(c.Copy >= 0 && c.Copy <= 1), "copy must be a fraction in [0, 1], like copy: 0.6, got %g", c.Copy)
	if c.Copy > 0 && !o.has("prompt") && !o.has("content") {
		c.Prompt = string(content.StyleCopy)
	}
}
