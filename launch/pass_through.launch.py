"""Starts the pass-through node on a camera topic: a transport check without a model.

It republishes each image (raw or compressed) with its header, and reports rate, bad frames and
incompatible publishers on /diagnostics. Use it to check that a camera's frames reach this package
(QoS, encodings, Fast DDS segment size: compare large_frames:=false and true) before starting
perception.launch.py.

    ros2 launch htp_perception pass_through.launch.py image:=/camera/image_raw
    ros2 launch htp_perception pass_through.launch.py image:=/camera/image_raw large_frames:=true
"""
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node


def generate_launch_description():
    image = LaunchConfiguration('image')
    return LaunchDescription([
        DeclareLaunchArgument('image', default_value='/camera/image_raw',
                              description='sensor_msgs/Image topic to pass through'),
        DeclareLaunchArgument('namespace', default_value='',
                              description='ROS namespace of the node'),
        DeclareLaunchArgument('use_sim_time', default_value='false',
                              description='true: stamps and rates follow /clock (simulation, bag replay)'),
        DeclareLaunchArgument('large_frames', default_value='false',
                              description='true: Fast DDS profile with 16 MB shared-memory segments (camera frames)'),
        DeclareLaunchArgument('enclave', default_value='/',
                              description='SROS2 enclave of the process (used when ROS 2 security is enabled)'),
        Node(package='htp_perception', executable='pass_through_node', name='pass_through',
             namespace=LaunchConfiguration('namespace'), output='screen',
             parameters=[{'use_sim_time': LaunchConfiguration('use_sim_time')}],
             remappings=[('image', image)],
             additional_env={'HTP_PERCEPTION_LARGE_FRAMES': LaunchConfiguration('large_frames')},
             ros_arguments=['--enclave', LaunchConfiguration('enclave')]),
    ])
