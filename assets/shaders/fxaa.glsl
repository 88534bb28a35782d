// Fast approximate anti-aliasing (after Timothy Lottes' FXAA; the compact form popularised by
// mattdesl/glsl-fxaa, MIT). Used once per change of the still picture where multisampling would
// cost too much (software renderers): it softens the pieces' silhouettes and the board's edge.
#if defined VERTEX_SHADER
#if defined EDGES
// only strips along given edges (the board block's outline: inside it the board is smooth already)
in vec2 in_ndc;
void main() {
    gl_Position = vec4(in_ndc, 0.0, 1.0);
}
#else
void main() {
    vec2 p = vec2((gl_VertexID << 1) & 2, gl_VertexID & 2);
    gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}
#endif
#elif defined FRAGMENT_SHADER
uniform sampler2D u_image;
out vec4 f_color;
const vec3 LUMA = vec3(0.299, 0.587, 0.114);
const float REDUCE_MIN = 1.0 / 128.0;
const float REDUCE_MUL = 1.0 / 8.0;
const float SPAN_MAX = 8.0;
const float EDGE_THRESHOLD = 0.09;  // contrast below this is left alone (wood grain, letters)
void main() {
    vec2 inv = 1.0 / vec2(textureSize(u_image, 0));
    vec2 uv = gl_FragCoord.xy * inv;
    vec4 m = texture(u_image, uv);
    vec3 nw = texture(u_image, uv + vec2(-1.0, -1.0) * inv).rgb;
    vec3 ne = texture(u_image, uv + vec2(1.0, -1.0) * inv).rgb;
    vec3 sw = texture(u_image, uv + vec2(-1.0, 1.0) * inv).rgb;
    vec3 se = texture(u_image, uv + vec2(1.0, 1.0) * inv).rgb;
    float lm = dot(m.rgb, LUMA);
    float lnw = dot(nw, LUMA), lne = dot(ne, LUMA), lsw = dot(sw, LUMA), lse = dot(se, LUMA);
    float lmin = min(lm, min(min(lnw, lne), min(lsw, lse)));
    float lmax = max(lm, max(max(lnw, lne), max(lsw, lse)));
    if (lmax - lmin < max(EDGE_THRESHOLD * lmax, 0.02)) {
        f_color = m;
        return;
    }
    vec2 dir = vec2(-((lnw + lne) - (lsw + lse)), (lnw + lsw) - (lne + lse));
    float reduce = max((lnw + lne + lsw + lse) * 0.25 * REDUCE_MUL, REDUCE_MIN);
    float rcp_min = 1.0 / (min(abs(dir.x), abs(dir.y)) + reduce);
    dir = clamp(dir * rcp_min, vec2(-SPAN_MAX), vec2(SPAN_MAX)) * inv;
    vec3 a = 0.5 * (texture(u_image, uv + dir * (1.0 / 3.0 - 0.5)).rgb + texture(u_image, uv + dir * (2.0 / 3.0 - 0.5)).rgb);
    vec3 b = a * 0.5 + 0.25 * (texture(u_image, uv - dir * 0.5).rgb + texture(u_image, uv + dir * 0.5).rgb);
    float lb = dot(b, LUMA);
    f_color = vec4((lb < lmin || lb > lmax) ? a : b, 1.0);
}
#endif
