// Flat marks lying on the board, instanced quads shaded by a distance function: soft shadows,
// dots, rings, line segments (the last move) and square outlines (the keyboard cursor).
#if defined VERTEX_SHADER
uniform mat4 u_view_proj;
in vec2 in_corner;   // quad corner in [-1, 1]^2
in vec4 in_segment;  // p0.xz, p1.xz (equal for round marks)
in vec4 in_shape;    // outer radius, inner radius, height above the board, kind
in vec4 in_colour;   // rgba, display gamma
out vec2 v_xz;
flat out vec4 v_segment;
flat out vec4 v_shape;
flat out vec4 v_colour;
void main() {
    vec2 p0 = in_segment.xy, p1 = in_segment.zw;
    vec2 d = p1 - p0;
    float len = length(d);
    vec2 dir = len > 1e-4 ? d / len : vec2(1.0, 0.0);
    vec2 perp = vec2(-dir.y, dir.x);
    // room for the outline's corners and the soft edge; a shadow's penumbra ends at its outer
    // radius (the shadows are most of the marks, and a software renderer pays for every pixel)
    float r = in_shape.x * (in_shape.w == 3.0 ? 1.0 : 1.45) + 0.02;
    vec2 xz = (p0 + p1) * 0.5 + dir * in_corner.x * (len * 0.5 + r) + perp * in_corner.y * r;
    v_xz = xz;
    v_segment = in_segment;
    v_shape = in_shape;
    v_colour = in_colour;
    gl_Position = u_view_proj * vec4(xz.x, in_shape.z, xz.y, 1.0);
}
#elif defined FRAGMENT_SHADER
in vec2 v_xz;
flat in vec4 v_segment;
flat in vec4 v_shape;
flat in vec4 v_colour;
out vec4 f_color;
const float DISC = 0.0, RING = 1.0, SQUARE = 2.0, SHADOW = 3.0;
void main() {
    vec2 p0 = v_segment.xy, p1 = v_segment.zw;
    vec2 pa = v_xz - p0, ba = p1 - p0;
    float h = clamp(dot(pa, ba) / max(dot(ba, ba), 1e-8), 0.0, 1.0);
    float dist = length(pa - ba * h);
    float kind = v_shape.w;
    if (kind == SQUARE) {
        vec2 q = abs(v_xz - p0);
        dist = max(q.x, q.y);
    }
    float aa = max(fwidth(dist), 1e-4);
    float ro = v_shape.x, ri = v_shape.y;
    float a;
    if (kind == SHADOW) {
        a = 1.0 - smoothstep(ri, ro, dist);  // a soft penumbra from the inner to the outer radius
        a *= a;
    } else {
        a = 1.0 - smoothstep(ro - aa, ro + aa, dist);
        if (kind != DISC) a *= smoothstep(ri - aa, ri + aa, dist);
    }
    if (a <= 0.0) discard;
    f_color = vec4(v_colour.rgb, v_colour.a * a);
}
#endif
