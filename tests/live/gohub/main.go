// gohub: a check of our hub client against the libraries Alicia's server is built on
// (gorilla/websocket and vmihailenco/msgpack v5), written for the inspector's tests.
//
// It is not Alicia's code. Its structs carry the msgpack tags that longregen/alicia declares in
// shared/protocol/types.go and envelope.go, and it routes as api/server/ws.go does for the parts the
// inspector uses: Subscribe and SubscribeAck, the Bearer / ?agent_secret= check, monitor fan-out as
// {src, dst, data}, the assistant's tools registration and ack, heartbeats and results to the monitors,
// and client ToolUseRequests from a monitor (the bridge) to the assistant.
//
//	gohub serve SECRET [PORT]  listen on 127.0.0.1 (PORT, else any), print "listening PORT", serve until
//	                           stdin closes
//	gohub encode            print the frames the Go side sends, one "name hex" per line
//	gohub decode            read "name hex" lines, decode each as the server would, print JSON lines
//
// Build: GO111MODULE=off GOPATH=/usr/share/gocode go build (Debian's golang-go,
// golang-github-gorilla-websocket-dev and golang-github-vmihailenco-msgpack.v5-dev).
package main

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"

	"github.com/gorilla/websocket"
	"github.com/vmihailenco/msgpack/v5"
)

type Envelope struct {
	ConversationID string `msgpack:"conversationId,omitempty"`
	Type           uint16 `msgpack:"type"`
	Body           any    `msgpack:"body"`
	TraceID        string `msgpack:"trace_id,omitempty"`
	SpanID         string `msgpack:"span_id,omitempty"`
	TraceFlags     byte   `msgpack:"trace_flags,omitempty"`
	SessionID      string `msgpack:"session_id,omitempty"`
	UserID         string `msgpack:"user_id,omitempty"`
}

type Subscribe struct {
	ConversationID string `msgpack:"conversationId,omitempty"`
	AgentMode      bool   `msgpack:"agentMode,omitempty"`
	VoiceMode      bool   `msgpack:"voiceMode,omitempty"`
	MonitorMode    bool   `msgpack:"monitorMode,omitempty"`
	AssistantMode  bool   `msgpack:"assistantMode,omitempty"`
	WhatsAppMode   bool   `msgpack:"whatsappMode,omitempty"`
}

type SubscribeAck struct {
	ConversationID string `msgpack:"conversationId,omitempty"`
	AgentMode      bool   `msgpack:"agentMode,omitempty"`
	Success        bool   `msgpack:"success"`
	Error          string `msgpack:"error,omitempty"`
}

type ToolUseRequest struct {
	ID             string         `msgpack:"id"`
	MessageID      string         `msgpack:"messageId"`
	ConversationID string         `msgpack:"conversationId"`
	ToolName       string         `msgpack:"toolName"`
	Arguments      map[string]any `msgpack:"arguments"`
	Execution      string         `msgpack:"execution,omitempty"`
}

type ToolUseResult struct {
	ID             string `msgpack:"id"`
	RequestID      string `msgpack:"requestId"`
	MessageID      string `msgpack:"messageId,omitempty"`
	ConversationID string `msgpack:"conversationId"`
	Success        bool   `msgpack:"success"`
	Result         any    `msgpack:"result,omitempty"`
	Error          string `msgpack:"error,omitempty"`
}

type AssistantTool struct {
	Name        string         `msgpack:"name"`
	Description string         `msgpack:"description"`
	InputSchema map[string]any `msgpack:"inputSchema,omitempty"`
}

type AssistantToolsRegister struct {
	Tools []AssistantTool `msgpack:"tools"`
}

type AssistantToolsAck struct {
	Success   bool   `msgpack:"success"`
	ToolCount int    `msgpack:"toolCount"`
	Error     string `msgpack:"error,omitempty"`
}

type monitorFrame struct {
	Src  string `msgpack:"src"`
	Dst  string `msgpack:"dst"`
	Data []byte `msgpack:"data"`
}

func pack(v any) []byte {
	data, err := msgpack.Marshal(v)
	if err != nil {
		panic(err)
	}
	return data
}

func envelope(conv string, kind uint16, body any) []byte {
	return pack(&Envelope{ConversationID: conv, Type: kind, Body: body})
}

func decodeEnvelope(data []byte) (*Envelope, error) {
	var env Envelope
	err := msgpack.Unmarshal(data, &env)
	return &env, err
}

// into re-encodes a decoded body and decodes it into T, as the server's DecodeBody does.
func into[T any](env *Envelope) (*T, error) {
	var out T
	data, err := msgpack.Marshal(env.Body)
	if err != nil {
		return nil, err
	}
	err = msgpack.Unmarshal(data, &out)
	return &out, err
}

// -- encode ---------------------------------------------------------------------------------

func encodeAll() {
	agentReq := &Envelope{
		ConversationID: "conv_go", Type: 6, TraceID: "0af7651916cd43dd8448eb211c80319c",
		SpanID: "b7ad6b7169203331", TraceFlags: 1, SessionID: "conv_go", UserID: "u_1",
		Body: &ToolUseRequest{ID: "tu_go", MessageID: "am_go", ConversationID: "conv_go",
			ToolName: "get_battery", Arguments: map[string]any{"detail": "full"}, Execution: "client"},
	}
	bridgeReq := envelope("__assistant__", 6, &ToolUseRequest{ID: "req_go", ToolName: "get_clipboard", Execution: "client"})
	frames := [][2]any{
		{"ack_monitor", envelope("", 42, &SubscribeAck{Success: true})},
		{"ack_refused", envelope("", 42, &SubscribeAck{Success: false, Error: "authentication required"})},
		{"ack_agent_refused", envelope("", 42, &SubscribeAck{AgentMode: true, Error: "authentication required"})},
		{"ack_conversation", envelope("conv_go", 42, &SubscribeAck{ConversationID: "conv_go", Success: true})},
		{"tools_ack", envelope("", 71, &AssistantToolsAck{Success: true, ToolCount: 2})},
		{"agent_request", pack(agentReq)},
		{"bridge_request", bridgeReq},
		{"monitor_agent_request", pack(&monitorFrame{Src: "agent", Dst: "server", Data: pack(agentReq)})},
		{"monitor_to_assistant", pack(&monitorFrame{Src: "server", Dst: "assistant", Data: bridgeReq})},
		{"monitor_garbage", pack(&monitorFrame{Src: "client", Dst: "server", Data: []byte("\xc1not msgpack")})},
	}
	for _, f := range frames {
		fmt.Printf("%s %s\n", f[0], hex.EncodeToString(f[1].([]byte)))
	}
}

// -- decode ---------------------------------------------------------------------------------

func decodeAll() {
	scanner := bufio.NewScanner(os.Stdin)
	scanner.Buffer(make([]byte, 1<<20), 1<<26)
	for scanner.Scan() {
		name, text, _ := strings.Cut(scanner.Text(), " ")
		data, err := hex.DecodeString(text)
		out := map[string]any{"name": name}
		if err == nil {
			out["decoded"], err = decodeOne(data)
		}
		if err != nil {
			out["error"] = err.Error()
		}
		line, _ := json.Marshal(out)
		fmt.Println(string(line))
	}
}

func decodeOne(data []byte) (any, error) {
	env, err := decodeEnvelope(data)
	if err != nil {
		return nil, err
	}
	head := map[string]any{"conversationId": env.ConversationID, "type": env.Type}
	var body any
	switch env.Type {
	case 40:
		body, err = into[Subscribe](env)
	case 70:
		body, err = into[AssistantToolsRegister](env)
	case 7:
		body, err = into[ToolUseResult](env)
	case 6:
		body, err = into[ToolUseRequest](env)
	default:
		body = env.Body
	}
	head["body"] = body
	return head, err
}

// -- serve ----------------------------------------------------------------------------------

type hub struct {
	secret    string
	mu        sync.Mutex
	monitors  map[*websocket.Conn]bool
	assistant *websocket.Conn
	writeMu   map[*websocket.Conn]*sync.Mutex
}

func (h *hub) write(conn *websocket.Conn, data []byte) error {
	h.mu.Lock()
	mu := h.writeMu[conn]
	if mu == nil {
		mu = &sync.Mutex{}
		h.writeMu[conn] = mu
	}
	h.mu.Unlock()
	mu.Lock()
	defer mu.Unlock()
	return conn.WriteMessage(websocket.BinaryMessage, data)
}

func (h *hub) toMonitors(data []byte, src, dst string) {
	h.mu.Lock()
	conns := make([]*websocket.Conn, 0, len(h.monitors))
	for conn := range h.monitors {
		conns = append(conns, conn)
	}
	h.mu.Unlock()
	frame := pack(&monitorFrame{Src: src, Dst: dst, Data: data})
	for _, conn := range conns {
		_ = h.write(conn, frame)
	}
}

func (h *hub) authorized(r *http.Request) bool {
	return h.secret == "" || r.Header.Get("Authorization") == "Bearer "+h.secret ||
		r.URL.Query().Get("agent_secret") == h.secret
}

func (h *hub) ack(conn *websocket.Conn, success bool, reason string) {
	_ = h.write(conn, envelope("", 42, &SubscribeAck{Success: success, Error: reason}))
}

func (h *hub) serveHTTP(w http.ResponseWriter, r *http.Request) {
	upgrader := websocket.Upgrader{ReadBufferSize: 1024, WriteBufferSize: 1024,
		CheckOrigin: func(*http.Request) bool { return true }}
	conn, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	defer conn.Close() // as ws.go: the TCP connection is closed with no close frame
	role := "client"
	for {
		_, data, err := conn.ReadMessage()
		if err != nil {
			break
		}
		if role != "monitor" {
			h.toMonitors(data, role, "server")
		}
		env, err := decodeEnvelope(data)
		if err != nil {
			continue
		}
		switch env.Type {
		case 40:
			sub, err := into[Subscribe](env)
			if err != nil {
				continue
			}
			if sub.MonitorMode {
				role = "monitor"
				h.mu.Lock()
				h.monitors[conn] = true
				h.mu.Unlock()
				h.ack(conn, true, "")
			} else if sub.AssistantMode {
				if !h.authorized(r) {
					h.ack(conn, false, "authentication required")
					continue
				}
				role = "assistant"
				h.mu.Lock()
				h.assistant = conn
				h.mu.Unlock()
				h.ack(conn, true, "")
			}
		case 70:
			if role == "assistant" {
				reg, err := into[AssistantToolsRegister](env)
				if err != nil {
					continue
				}
				_ = h.write(conn, envelope("", 71, &AssistantToolsAck{Success: true, ToolCount: len(reg.Tools)}))
			}
		case 72:
			if role == "assistant" {
				h.toMonitors(data, "assistant", "monitor")
			}
		case 7:
			if role == "assistant" {
				h.toMonitors(data, "assistant", "monitor")
			}
		case 6:
			req, err := into[ToolUseRequest](env)
			if role == "monitor" && err == nil && req.Execution == "client" {
				h.toMonitors(data, "server", "assistant")
				h.mu.Lock()
				target := h.assistant
				h.mu.Unlock()
				if target != nil {
					_ = h.write(target, data)
				}
			}
		}
	}
	h.mu.Lock()
	delete(h.monitors, conn)
	delete(h.writeMu, conn)
	if h.assistant == conn {
		h.assistant = nil
	}
	h.mu.Unlock()
}

func serve(secret, port string) {
	h := &hub{secret: secret, monitors: map[*websocket.Conn]bool{}, writeMu: map[*websocket.Conn]*sync.Mutex{}}
	listener, err := net.Listen("tcp", "127.0.0.1:"+port)
	if err != nil {
		panic(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/api/v1/ws", h.serveHTTP)
	go func() { _ = http.Serve(listener, mux) }()
	fmt.Printf("listening %d\n", listener.Addr().(*net.TCPAddr).Port)
	_, _ = bufio.NewReader(os.Stdin).ReadString('\n') // until stdin closes
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: gohub serve SECRET | encode | decode")
		os.Exit(2)
	}
	switch os.Args[1] {
	case "serve":
		secret, port := "", "0"
		if len(os.Args) > 2 {
			secret = os.Args[2]
		}
		if len(os.Args) > 3 {
			port = os.Args[3]
		}
		serve(secret, port)
	case "encode":
		encodeAll()
	case "decode":
		decodeAll()
	}
}
