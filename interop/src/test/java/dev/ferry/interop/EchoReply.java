package dev.ferry.interop;

/** What an echo call got back: the two parts, and the Content-Type the reply arrived with. */
record EchoReply(String name, byte[] attachinfo, String contentType) {}
