// A calm backdrop: a soft vertical gradient with a gentle vignette, drawn as one big triangle.
#if defined VERTEX_SHADER
out vec2 v_uv;
void main() {
    vec2 p = vec2((gl_VertexID << 1) & 2, gl_VertexID & 2);
    v_uv = p;
    gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}
#elif defined FRAGMENT_SHADER
in vec2 v_uv;
out vec4 f_color;
void main() {
    vec3 top = vec3(0.20, 0.22, 0.25);
    vec3 bottom = vec3(0.09, 0.085, 0.09);
    vec3 c = mix(bottom, top, smoothstep(0.0, 1.0, v_uv.y));
    vec2 q = v_uv - vec2(0.5, 0.45);
    c *= 1.0 - 0.45 * dot(q, q);
    f_color = vec4(c, 1.0);
}
#endif
