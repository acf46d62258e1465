package openai

// Image is one image a message carries after its text, as a client sends
// it: its MIME type (image/png or image/jpeg) and its bytes in standard
// base64, appended to a body as they are.
type Image struct {
	MediaType string
	Data      string
}

// imageShape is how an API writes a message's content parts.
type imageShape int

// The content shapes of the APIs that send images.
const (
	// chatShape: {"type":"text","text":…} and
	// {"type":"image_url","image_url":{"url":"data:…"}}.
	chatShape imageShape = iota
	// responsesShape: {"type":"input_text","text":…} and
	// {"type":"input_image","image_url":"data:…"}.
	responsesShape
	// messagesShape: {"type":"text","text":…} and {"type":"image",
	// "source":{"type":"base64","media_type":…,"data":…}}.
	messagesShape
)

// appendContent appends a message's content: its text as a string, or,
// with images, an array of a text part (left out when the text is
// empty, which Anthropic's API refuses) and one part per image, in
// shape.
func appendContent(dst []byte, m *Message, shape imageShape) []byte {
	if len(m.Images) == 0 {
		return appendString(dst, m.Content)
	}
	dst = append(dst, '[')
	if m.Content != "" {
		if shape == responsesShape {
			dst = append(dst, `{"type":"input_text","text":`...)
		} else {
			dst = append(dst, `{"type":"text","text":`...)
		}
		dst = append(appendString(dst, m.Content), '}')
	}
	for i, im := range m.Images {
		if i > 0 || m.Content != "" {
			dst = append(dst, ',')
		}
		dst = appendImage(dst, im, shape)
	}
	return append(dst, ']')
}

// appendImage appends one image part in shape. Base64 and the media
// types surge sends need no escaping; other media types are escaped.
func appendImage(dst []byte, im Image, shape imageShape) []byte {
	switch shape {
	case messagesShape:
		dst = append(dst, `{"type":"image","source":{"type":"base64","media_type":`...)
		dst = appendString(dst, im.MediaType)
		dst = append(dst, `,"data":"`...)
		dst = append(dst, im.Data...)
		return append(dst, `"}}`...)
	case responsesShape:
		dst = append(dst, `{"type":"input_image","image_url":`...)
		dst = appendDataURL(dst, im)
		return append(dst, '}')
	}
	dst = append(dst, `{"type":"image_url","image_url":{"url":`...)
	dst = appendDataURL(dst, im)
	return append(dst, `}}`...)
}

// appendDataURL appends im as a JSON string holding its data URL.
func appendDataURL(dst []byte, im Image) []byte {
	dst = appendString(dst, "data:"+im.MediaType+";base64,")
	dst = dst[:len(dst)-1] // reopen the string
	dst = append(dst, im.Data...)
	return append(dst, '"')
}
