// The board block: the top samples the baked board image (rgb = wood, a = lacquer gloss).
#if defined VERTEX_SHADER
uniform mat4 u_view_proj;
in vec3 in_position;
in vec3 in_normal;
in vec2 in_uv;
out vec3 v_pos;
out vec3 v_normal;
out vec2 v_uv;
void main() {
    v_pos = in_position;
    v_normal = in_normal;
    v_uv = in_uv;
    gl_Position = u_view_proj * vec4(in_position, 1.0);
}
#elif defined FRAGMENT_SHADER
#include "lighting.glsl"
uniform sampler2D u_board;
in vec3 v_pos;
in vec3 v_normal;
in vec2 v_uv;
out vec4 f_color;
void main() {
    vec4 t = texture(u_board, v_uv);
    vec3 albedo = to_linear(t.rgb);
    float side = 1.0 - step(0.5, v_normal.y);
    albedo *= 1.0 - 0.35 * side;  // end grain on the sides is darker
    vec3 c = shade(albedo, normalize(v_normal), v_pos, 0.5 * t.a, 300.0);
    f_color = vec4(to_display(c), 1.0);
}
#endif
