// A 2D surface (the side panel, buttons) drawn as a textured rectangle, alpha blended.
#if defined VERTEX_SHADER
uniform vec4 u_rect;  // left, bottom, width, height in normalised device coordinates
out vec2 v_uv;
void main() {
    vec2 p = vec2(gl_VertexID & 1, gl_VertexID >> 1);  // a 4-vertex triangle strip over [0,1]^2
    v_uv = vec2(p.x, 1.0 - p.y);  // pygame's rows run downwards
    gl_Position = vec4(u_rect.xy + p * u_rect.zw, 0.0, 1.0);
}
#elif defined FRAGMENT_SHADER
uniform sampler2D u_surface;
in vec2 v_uv;
out vec4 f_color;
void main() {
    f_color = texture(u_surface, v_uv);
}
#endif
